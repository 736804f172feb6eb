#!/usr/bin/env bash
# logging_launcher.sh COMMAND...: a compiler launcher (like ccache) that appends its
# command line to $LAUNCH_LOG, then runs it.
echo "$@" >>"$LAUNCH_LOG"
exec "$@"
