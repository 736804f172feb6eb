# interleave.sh BUILD_DIR WAITER WRITER COMMAND...: a compiler launcher, run behind
# perf-instrument (after it has written the unit's mirror), that makes two compiles
# meet the way a parallel build can: the compile of WAITER (a source file name) waits
# until the mirror of WRITER has been written too (at most 30 s), then compiles. With
# one mirror per header for every unit, WAITER would compile what WRITER planned.
build=$1 waiter=$2 writer=$3
shift 3
case " $* " in
  *"/$writer "*) touch "$build/$writer.mirrored" ;;
  *"/$waiter "*)
    tries=0
    while [ ! -e "$build/$writer.mirrored" ] && [ $tries -lt 300 ]; do
      sleep 0.1
      tries=$((tries + 1))
    done ;;
esac
exec "$@"
