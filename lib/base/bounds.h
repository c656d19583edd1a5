/* SPDX-License-Identifier: MIT */
/*
 * bounds.h - every bound the library puts on its input, in one place.
 *
 * profconv reads profiles from production hosts, and binaries the profile
 * itself names, so whoever writes a profile controls the input.  Each
 * bound below keeps a small hostile input from costing much more time or
 * memory than a real one of its size; an input beyond a bound is refused
 * with PROFCONV_EFORMAT (or, where noted, worked around with a warning),
 * never cut short silently.  man/libprofconv.3 (LIMITS) lists them for
 * users; keep the two in step.
 *
 * The whole decompressed input is bounded by the read options' max_input
 * (PROFCONV_DEFAULT_MAX_INPUT, 8 GiB, in profconv.h), and so are the
 * samples it expands to in the model: the pprof decoder's sample arrays
 * (pprof/decode_samples.c), and the stacks of heaptrack's trace nodes and
 * massif's heap tree nodes (read/heaptrack.c, read/massif.c), where N
 * chained nodes are N * N / 2 frames; these are counted before any
 * sample is made.
 */
#ifndef PROFCONV_BOUNDS_H
#define PROFCONV_BOUNDS_H

/* Longest text line a reader accepts (input.c). */
#define PC_MAX_LINE ((size_t)1 << 20)

/*
 * Leak suppressions (view/suppress.c): the text has at most
 * PROFCONV_MAX_SUPPRESSIONS bytes (1 MiB, profconv.h, so that commands
 * read no more of a file) and at most PC_SUPP_MAX_PATTERNS "leak:"
 * patterns, each tried on every frame of every location: a longer text
 * or more patterns is refused with PROFCONV_EINVAL.
 */
#define PC_SUPP_MAX_PATTERNS 10000

/*
 * The page of a series (report/report.c, report/report_data.c): of more
 * than PC_REPORT_SERIES_POINTS snapshots it carries that many, in its
 * snapshot table and its Explore tab, picked as the trend's picture picks
 * the snapshots it draws (profconv__trend_pick(): the first, the last,
 * and the one with the largest total of each stretch between them); the
 * Explore tab's call tree keeps at most PC_REPORT_SERIES_CELLS node
 * values over those snapshots (nodes times snapshots, the heaviest nodes
 * first), so the page follows what it shows, not snapshots times stacks.
 */
#define PC_REPORT_SERIES_POINTS 500
#define PC_REPORT_SERIES_CELLS 100000

/*
 * drop_frames and keep_frames regexes (prune.c), compiled with glibc's
 * regcomp, whose time and memory grow with the expansion of counted
 * repetitions, not with the text: nested {m,n} counts multiply to at most
 * PC_RX_MAX_REPEAT, as in RE2 and Go (which pprof uses); the pattern with
 * every counted repetition expanded has at most PC_RX_MAX_SIZE atoms;
 * groups nest at most PC_RX_MAX_DEPTH deep; no back-references
 * (exponential to match, and unknown to RE2).  A pattern beyond these is
 * replaced by pprof's default for the sample types, with a reason the
 * caller can show as a warning.  The caller's own expressions (a view's
 * focus, ignore, hide, show, show_from, prune_from, the tag filters'
 * values, tagshow and taghide: view.c, labels.c; a print's peek:
 * write/tree.c) have the same bounds,
 * and one beyond them is refused with PROFCONV_EINVAL.
 */
#define PC_RX_MAX_REPEAT 1000
#define PC_RX_MAX_SIZE 4000
#define PC_RX_MAX_DEPTH 100

/*
 * $variables in a memory map (maps.c): the values substituted into one
 * map's lines total at most PC_MAPS_MAX_EXPANSION bytes (three lines could
 * otherwise expand to 1 GB each), and finding them costs at most
 * PC_MAPS_MAX_LOOKUPS name comparisons (variables times '$' characters).
 */
#define PC_MAPS_MAX_EXPANSION ((uint64_t)16 << 20)
#define PC_MAPS_MAX_LOOKUPS ((uint64_t)64 << 20)
/* A maps file given to the symbolizer (--maps, /proc/PID/maps): a real one
 * with 100,000 entries is about 10 MB. */
#define PC_MAPS_MAX_FILE ((uint64_t)256 << 20)

/*
 * A program's ELF facts (symbolize/elffacts.c, profconv_elf_facts_read()),
 * where the program is any file the caller names: a "#!" line is read
 * from the first PC_ELF_SHEBANG_MAX bytes, as the kernel's
 * BINPRM_BUF_SIZE, and scripts are followed at most PC_ELF_MAX_SCRIPTS
 * deep, the kernel's own depth; the dynamic section is read up to
 * PC_ELF_MAX_DYNAMIC entries (its DT_NULL must come by then; a real one
 * has 30 to 60); at most PC_ELF_MAX_NEEDED DT_NEEDED names (a large
 * program has a few hundred), each, and PT_INTERP, at most
 * PC_ELF_MAX_NAME bytes: a few megabytes at worst, whatever the file.
 */
#define PC_ELF_SHEBANG_MAX 256
#define PC_ELF_MAX_SCRIPTS 4
#define PC_ELF_MAX_DYNAMIC 4096
#define PC_ELF_MAX_NEEDED 1024
#define PC_ELF_MAX_NAME 4096

/*
 * What a view shows (view/view.c), so that every writer draws the same:
 * a 227-byte pprof can hold a stack 100,000 frames deep whose one name
 * is 10 KB, a gigabyte of folded text or SVG.  A stack deeper than
 * PC_VIEW_MAX_DEPTH frames keeps its PC_VIEW_MAX_DEPTH - 1 innermost
 * ones under one frame, PC_VIEW_CUT_FRAME, at the root end; a name or
 * frame text longer than PC_VIEW_MAX_NAME bytes keeps its beginning and
 * end around "..." (cut between UTF-8 characters).  Stacks (and names)
 * that differ only in what is cut show as one.
 */
#define PC_VIEW_MAX_DEPTH 1024
#define PC_VIEW_MAX_NAME 1024
#define PC_VIEW_CUT_FRAME "[stack cut: deeper than 1024 frames]"

/*
 * A source file an annotated listing reads (report/source.c) has at most
 * PC_SOURCE_MAX_FILE bytes unless the caller says otherwise (a larger one
 * is listed as not found, with the reason); a line of it is shown up to
 * PC_SOURCE_MAX_LINE bytes, the rest counted ("[... N more bytes]"), as
 * go tool pprof reads lines of at most 64 KiB.
 */
#define PC_SOURCE_MAX_FILE ((uint64_t)64 << 20)
#define PC_SOURCE_MAX_LINE ((size_t)64 << 10)

/*
 * One listing reads each source file once (by device and inode, however
 * many names lead to it) and at most PC_SOURCE_MAX_TOTAL bytes of them
 * together (or the caller's max_source, when larger): a file beyond is
 * listed as not found, with the reason.  Only the lines within
 * PC_LIST_CONTEXT lines of a line that holds something are shown (a
 * function's first line too); a run of others is one "..." row.  A
 * listing has at most PC_LIST_MAX_ROWS rows; the functions beyond are
 * named in a note, not listed.
 */
#define PC_SOURCE_MAX_TOTAL ((uint64_t)256 << 20)
#define PC_LIST_CONTEXT 100
#define PC_LIST_MAX_ROWS ((size_t)1 << 20)

/*
 * A separate debug file found by its .gnu_debuglink is checked by the
 * CRC-32 of the whole file (find.c); one whose size is more than
 * PC_DEBUGLINK_MAX_RATIO times the binary's and more than
 * PC_DEBUGLINK_MIN_BOUND is not read and not used, as if absent (a
 * sparse 20 GB file took 70 s per candidate).  Debug files found by
 * build id are not read whole, and not bounded.
 */
#define PC_DEBUGLINK_MAX_RATIO 64
#define PC_DEBUGLINK_MIN_BOUND ((uint64_t)256 << 20)

/*
 * A binary or separate debug file up to PC_SYM_MAX_COPY bytes is read
 * into a private copy in memory before libdw maps it (modules.c): a
 * mapped file truncated while it is read would kill the process with
 * SIGBUS.  A larger one (or one over RLIMIT_FSIZE, which a memfd obeys,
 * or a binary when debuginfod is on, whose libdwfl search needs the
 * file itself) is mapped in place, and is not protected.
 */
#define PC_SYM_MAX_COPY ((uint64_t)1 << 30)

/*
 * A call graph drawn as DOT or a picture (view/graph.c) keeps at most
 * PC_GRAPH_MAX_EDGES edges after pprof's own cutoffs: the heaviest, in
 * pprof's edge order; the legend counts the rest ("Dropped N edges over
 * the limit of 200").  The text reports (-tree, -peek) and callgrind,
 * which no layout reads, keep them all, as pprof does.
 * Real graphs of pprof's 80 nodes have under 100 edges, so pprof's DOT
 * is unchanged; 40 functions calling each other in every pair make
 * 1,560, which Graphviz's dot layout did not finish in 300 s.  The
 * layout itself (write/graphviz.c) runs with its network simplex
 * bounded to PC_GRAPHVIZ_NSLIMIT passes over the nodes for ranking and
 * placement (Graphviz's nslimit1 and nslimit; its crossing minimization
 * is bounded by mclimit's default already), and a graph of more than
 * PC_GRAPHVIZ_CURVED_EDGES edges (nodelets' included) gets straight
 * edges (splines=line): routing 200 curved edges that span many ranks
 * took 25 s, straight ones 2 s.  Ordinary graphs reach neither limit.
 */
#define PC_GRAPH_MAX_EDGES 200
#define PC_GRAPHVIZ_NSLIMIT "1"
#define PC_GRAPHVIZ_CURVED_EDGES 120

/*
 * Allocation wrappers found by their shape (view/wrappers.c, the view's
 * find_wrappers): in a profile that counts allocations, after allocator
 * frames (and the wrappers found so far) are cut, a function F is cut
 * as an allocation wrapper when it is the leaf of at least
 * PC_WRAP_LEAF_PERCENT % of the value of the samples it appears in, it
 * is the leaf under at least PC_WRAP_MIN_CALLERS distinct calling
 * functions, and the samples where it is the leaf hold at least
 * PC_WRAP_MIN_PERMILLE per mille of the profile's value (of its
 * default sample type).  The rule is applied again with what it cut
 * (a wrapper of a wrapper) at most PC_WRAP_MAX_ROUNDS times, and cuts
 * at most PC_WRAP_MAX_FOUND functions in all (the largest first).
 */
#define PC_WRAP_LEAF_PERCENT 90
#define PC_WRAP_MIN_CALLERS 4
#define PC_WRAP_MIN_PERMILLE 5
#define PC_WRAP_MAX_ROUNDS 8
#define PC_WRAP_MAX_FOUND 64

#endif /* PROFCONV_BOUNDS_H */
