#pragma once
double clamp_positive(double x) { return x < 0 ? 0 : x; }
