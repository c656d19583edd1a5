// SPDX-License-Identifier: MIT
// export_report_test.go - write the profile of pprof's internal/report
// TestSource (testProfile, drawn as testdata/source.rpt with -list . and
// as testdata/source.dot) as a gzipped pprof file, report.pb.gz.
//
// tests/cli/pprof-goldens.sh copies this file into a scratch copy of
// github.com/google/pprof/internal/report (package report) and runs
// `go test -run TestExportGoldenReportSource` there with
// PPROF_GOLDEN_OUT set to the output directory.
package report

import (
	"os"
	"path/filepath"
	"testing"
)

func TestExportGoldenReportSource(t *testing.T) {
	dir := os.Getenv("PPROF_GOLDEN_OUT")
	if dir == "" {
		t.Skip("PPROF_GOLDEN_OUT not set")
	}
	f, err := os.Create(filepath.Join(dir, "report.pb.gz"))
	if err != nil {
		t.Fatal(err)
	}
	if err := testProfile.Copy().Write(f); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}
