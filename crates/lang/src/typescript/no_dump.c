/* Loaded into polyeval's warm TypeScript worker (node has no prctl): makes
   the process non-dumpable as it is loaded, or ends it. It also ignores
   SIGUSR1, node's signal to open its inspector on 127.0.0.1:9229: a sample
   (same uid, same network namespace) could otherwise run code in this
   process through it, and every later sample's compile with it. */
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>
__attribute__((constructor)) static void polyeval_no_dump(void) {
    if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0 || prctl(PR_GET_DUMPABLE, 0, 0, 0, 0) != 0
        || signal(SIGUSR1, SIG_IGN) == SIG_ERR)
        _exit(2);
}
