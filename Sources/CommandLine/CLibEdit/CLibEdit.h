// The BSD editline library (libedit): line editing and history.
#include <stdio.h>
#include <histedit.h>
