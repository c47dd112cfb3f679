#pragma once
#include <stdlib.h>
#include <mpg123.h>
