#pragma once
// libinih (Debian's libinih-dev, inih r55), the INI parser of the configuration file.
//
// Debian 12 builds libinih.so with INI_HANDLER_LINENO=1: its ini_parse_* call the handler with
// a fifth argument, the line number (seen in the disassembly and by a test program), while
// the installed ini.h defaults the macro to 0 and declares a four-argument handler. Defining
// it here makes the handler's type match the library's calls. Shfl does not rely on that
// argument, though: ShflConfig parses with ini_parse_stream and its own line reader, which
// counts the lines itself (and handles over-long lines, which inih would split in two).
#define INI_HANDLER_LINENO 1
#include <ini.h>
