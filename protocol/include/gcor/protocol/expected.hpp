#pragma once
// An error value for untrusted input: a stable code for programs and a message for people.
#include <string>
#include <utility>
#include <variant>

namespace gcor::protocol {

struct Error {
    std::string code;
    std::string message;
};

// A value or the Error that prevented it (std::expected arrives with C++23).
template <class T>
class Expected {
  public:
    Expected(T value) : value_(std::move(value)) {}
    Expected(Error error) : value_(std::move(error)) {}

    bool has_value() const { return value_.index() == 0; }
    explicit operator bool() const { return has_value(); }
    T& operator*() { return std::get<0>(value_); }
    const T& operator*() const { return std::get<0>(value_); }
    T* operator->() { return &std::get<0>(value_); }
    const T* operator->() const { return &std::get<0>(value_); }
    const Error& error() const { return std::get<1>(value_); }

  private:
    std::variant<T, Error> value_;
};

}  // namespace gcor::protocol
