#pragma once
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

struct Shape {
    virtual ~Shape() = default;
    virtual double area() const = 0;
};

using Factory = std::function<std::unique_ptr<Shape>(double)>;
using Registry = std::vector<std::pair<std::string, Factory>>;

// All registered shape factories, in registration order.
Registry &registry();
bool register_shape(const std::string &name, Factory f);
