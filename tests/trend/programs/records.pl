# SPDX-License-Identifier: MIT
# records.pl MODE STEPS [IDLE] - a perl program whose memory behaviour is
# known, for proftrend's verdicts on real dumps (tests/cli/trend-programs.sh).
# Each step adds 300 records of about 1 KiB and makes garbage freed at once.
#   grow:    every record is kept in a hash that only grows: a leak;
#   bounded: the hash keeps the last 3000 records: fills, then holds;
#   twins:   besides the hash, the same records as arrays of two strings
#            in an array, grown in lockstep by another sub: two leaks of
#            the same shape on different stacks;
#   strings: each step keeps one string of 20 KB and builds a hash of 200
#            short strings that goes at the step's end: a leak of 20 KB a
#            step, a few samples in all at jemalloc's default rate.
# With IDLE, after the steps the program idles IDLE seconds, allocating
# only short-lived strings (so a profiler dumping by time still dumps).
use strict;
use warnings;
use Time::HiRes qw(sleep time);

my ($mode, $steps, $idle) = @ARGV;
my $pause = $ENV{RECORDS_PAUSE} // 0;
our %keep;	# a global: perl leaves it to the exit, as a leak
our @pairs;	# twins' second structure

sub pair_of { my ($k) = @_; return [ "p$k", "y" x 600 ]; }
if ($mode eq 'strings') {
	our @kept;
	for (1 .. $steps) {
		push @kept, "x" x 20000;
		my %h = map { $_ => "y" x 100 } 1 .. 200;
	}
	exit 0;
}
my @order;
my $n = 0;
for my $s (1 .. $steps) {
	for (1 .. 300) {
		$n++;
		$keep{$n} = "r$n " . ("x" x 1000);
		push @pairs, pair_of($n) if $mode eq 'twins';
		if ($mode eq 'bounded') {
			push @order, $n;
			delete $keep{ shift @order } if @order > 3000;
		}
	}
	my @garbage = map { "g" x 2000 } 1 .. 100;
	sleep($pause) if $pause;
}
if ($idle) {
	my $end = time + $idle;
	while (time < $end) {
		my $s = "i" x 4096;
		undef $s;	# freed: the next one is malloc'd again
		sleep(0.02);
	}
}
