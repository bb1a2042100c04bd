#include <cmath>
#include "registry.hpp"
#include "util.hpp"

namespace {
struct Circle : Shape { double r; explicit Circle(double r) : r(clamp_positive(r)) {} double area() const override { return M_PI * r * r; } };
struct Square : Shape { double s; explicit Square(double s) : s(clamp_positive(s)) {} double area() const override { return s * s; } };
struct Triangle : Shape { double s; explicit Triangle(double s) : s(clamp_positive(s)) {} double area() const override { return std::sqrt(3.0) / 4 * s * s; } };

bool r1 = register_shape("square", [](double x) { return std::unique_ptr<Shape>(new Square(x)); });
bool r2 = register_shape("circle", [](double x) { return std::unique_ptr<Shape>(new Circle(x)); });
bool r3 = register_shape("triangle", [](double x) { return std::unique_ptr<Shape>(new Triangle(x)); });
}
