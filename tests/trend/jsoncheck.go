// SPDX-License-Identifier: MIT
// jsoncheck.go - parse proftrend --json output from standard input with
// Go's encoding/json, check that every field issue 11 names is there
// with the right JSON type, and print "snapshots N", then one line per
// row: "suspect NAME" or "row NAME", in the order given.
package main

import (
	"encoding/json"
	"fmt"
	"os"
)

func need(obj map[string]any, where string, key string, kind string) {
	v, ok := obj[key]
	if !ok {
		fail("%s has no field %q", where, key)
	}
	switch kind {
	case "string":
		_, ok = v.(string)
	case "number":
		_, ok = v.(float64)
	case "bool":
		_, ok = v.(bool)
	case "number|null":
		_, ok = v.(float64)
		ok = ok || v == nil
	case "array":
		_, ok = v.([]any)
	}
	if !ok {
		fail("%s field %q is not a %s: %v", where, key, kind, v)
	}
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "jsoncheck: "+format+"\n", args...)
	os.Exit(1)
}

func main() {
	var doc map[string]any
	dec := json.NewDecoder(os.Stdin)
	if err := dec.Decode(&doc); err != nil {
		fail("not JSON: %v", err)
	}
	if dec.More() {
		fail("more than one JSON value")
	}
	need(doc, "top level", "snapshots", "array")
	need(doc, "top level", "rows", "array")
	snaps := doc["snapshots"].([]any)
	for i, s := range snaps {
		o, ok := s.(map[string]any)
		if !ok {
			fail("snapshot %d is not an object", i)
		}
		where := fmt.Sprintf("snapshot %d", i)
		need(o, where, "file", "string")
		need(o, where, "inuse_bytes", "number")
		need(o, where, "inuse_objects", "number|null")
	}
	fmt.Printf("snapshots %d\n", len(snaps))
	for i, r := range doc["rows"].([]any) {
		o, ok := r.(map[string]any)
		if !ok {
			fail("row %d is not an object", i)
		}
		where := fmt.Sprintf("row %d", i)
		need(o, where, "name", "string")
		for _, k := range []string{"first_bytes", "last_bytes",
			"growth_bytes", "slope_bytes", "grew_intervals", "intervals"} {
			need(o, where, k, "number")
		}
		need(o, where, "suspect", "bool")
		if o["suspect"].(bool) {
			fmt.Printf("suspect %s\n", o["name"])
		} else {
			fmt.Printf("row %s\n", o["name"])
		}
	}
}
