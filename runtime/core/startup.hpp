// How the runtime's components hook into the process's start and exit.
//
// A component registers what it needs (thread hooks, snapshot parts, exit outputs,
// signal handlers) from a function declared with PERF_RUNTIME_ON_START, in its own
// source file: no list of components exists anywhere else.
#ifndef PERF_RUNTIME_CORE_STARTUP_HPP
#define PERF_RUNTIME_CORE_STARTUP_HPP

namespace perf::runtime {

// The runtime's one way to run code when it is loaded: these three macros, in three
// phases (no other constructor attribute is spelled anywhere in runtime/).
//
// PERF_RUNTIME_ON_START defines `function`, run when the runtime is loaded: before
// the program's own static constructors (priority 101; a shared library's
// constructors also run before those of the program that needs it), so what it
// registers is in place before the program's first measured call. Such functions
// run in no particular order.
#define PERF_RUNTIME_ON_START(function) __attribute__((constructor(101))) static void function()
// After every PERF_RUNTIME_ON_START function (priority 102): core's marks of the
// start-up's end (threads may attach; the main thread's counts so far forgotten).
#define PERF_RUNTIME_START_DONE(function) __attribute__((constructor(102))) static void function()
// After the start-up and the library's own static initialisers (default priority):
// what needs every registration in place (the live endpoint's server), and the
// allocation interposer's choice of how it counts.
#define PERF_RUNTIME_AFTER_START(function) __attribute__((constructor)) static void function()

// Has `write` run when the program exits, after the program's static destructors
// (the runtime registers its atexit handler before the program's constructors run).
// Outputs run in registration order, each to its own destination. Call it only
// from a PERF_RUNTIME_ON_START function.
void add_exit_output(void (*write)());

// Has `quiet` run when the program exits, before every exit output: for a component
// whose own activity would otherwise land in what the outputs write (the sampler
// stops sampling, so the report's samples are the program's, not the report's).
// Call it only from a PERF_RUNTIME_ON_START function.
void add_exit_quiet(void (*quiet)());

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_CORE_STARTUP_HPP
