// SPDX-License-Identifier: MIT
// export_test.go - write the source profiles of pprof's TestParse as
// gzipped pprof files, so that profconv can be run on the very inputs of
// pprof's internal/driver golden reports.
//
// tests/cli/pprof-goldens.sh copies this file into a scratch copy of
// github.com/google/pprof/internal/driver (package driver) and runs
// `go test -run TestExportGoldenSources` there with PPROF_GOLDEN_OUT set
// to the output directory.  Each source goes through the same two steps
// as a TestParse case: the driver's testFetcher and testSymbolizer write
// the profile (pprof -proto), then the driver reads that file back with
// testSymbolizeDemangler (mangledNNNN -> lineNNNN) and writes it again.
// The second file, <source>.pb.gz, is what the golden reports were
// drawn from.
package driver

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/pprof/internal/plugin"
	"github.com/google/pprof/internal/proftest"
)

// The sources the TestParse cases name; "unknown" is the cpu profile
// under another name.
var goldenSources = []string{
	"contention", "cpu", "cpusmall", "heap", "heap_alloc", "heap_request",
	"heap_sizetags", "heap_tags", "long_name_funcs", "unknown",
}

func TestExportGoldenSources(t *testing.T) {
	dir := os.Getenv("PPROF_GOLDEN_OUT")
	if dir == "" {
		t.Skip("PPROF_GOLDEN_OUT not set")
	}
	// As TestParse: the fake object tool "finds" every binary, so point
	// the search at the fake directory to keep the mapping's file name.
	save := os.Getenv("PPROF_BINARY_PATH")
	os.Setenv("PPROF_BINARY_PATH", "/path/to")
	defer os.Setenv("PPROF_BINARY_PATH", save)
	baseConfig := currentConfig()
	defer setCurrentConfig(baseConfig)
	for _, src := range goldenSources {
		raw := filepath.Join(dir, src+".raw.pb.gz")
		out := filepath.Join(dir, src+".pb.gz")
		ui := &proftest.TestUI{T: t, AllowRx: "Generating report in|Ignoring local file"}

		setCurrentConfig(baseConfig)
		f := baseFlags()
		f.args = []string{src}
		f.strings["output"] = raw
		o := setDefaults(&plugin.Options{Flagset: f})
		o.Fetch = testFetcher{}
		o.Sym = testSymbolizer{}
		o.UI = ui
		if err := PProf(o); err != nil {
			t.Fatalf("%s: %v", src, err)
		}

		setCurrentConfig(baseConfig)
		f = baseFlags()
		f.args = []string{raw}
		f.strings["output"] = out
		o = setDefaults(&plugin.Options{Flagset: f})
		o.Sym = testSymbolizeDemangler{}
		o.Obj = new(mockObjTool)
		o.UI = ui
		if err := PProf(o); err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		os.Remove(raw)
	}
}
