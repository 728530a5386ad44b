#pragma once
#include "sim/engine/nowhere.hpp"
