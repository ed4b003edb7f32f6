/* Loaded into polyeval's warm TypeScript worker (node has no prctl): makes
   the process non-dumpable as it is loaded, or ends it. */
#include <sys/prctl.h>
#include <unistd.h>
__attribute__((constructor)) static void polyeval_no_dump(void) {
    if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0 || prctl(PR_GET_DUMPABLE, 0, 0, 0, 0) != 0)
        _exit(2);
}
