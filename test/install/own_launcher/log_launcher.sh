# log_launcher.sh LOG COMMAND...: a compiler launcher (like ccache) that appends its
# command line to LOG, then runs it.
log=$1
shift
echo "$@" >>"$log"
exec "$@"
