#pragma once
#include "sim/cli/commands.hpp"  // a layer below including one above: check-layers must refuse it
