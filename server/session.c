#include "server/session.h"
int session_run_stdio(void) { return 0; }
