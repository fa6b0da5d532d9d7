#pragma once
// An owning handle for a C library's object (OpenCL, cuDNN): released once with its owner, also
// when a constructor throws half way; movable, never copied.
#include <utility>

namespace perfzero::bench {

template <typename T, auto Release>
class OwnedHandle {
 public:
  OwnedHandle() = default;
  explicit OwnedHandle(T object) : object_(object) {}
  ~OwnedHandle() { reset(); }
  OwnedHandle(const OwnedHandle&) = delete;
  OwnedHandle& operator=(const OwnedHandle&) = delete;
  OwnedHandle(OwnedHandle&& other) noexcept : object_(std::exchange(other.object_, nullptr)) {}
  OwnedHandle& operator=(OwnedHandle&& other) noexcept {
    if (this != &other) {
      reset();
      object_ = std::exchange(other.object_, nullptr);
    }
    return *this;
  }
  T get() const { return object_; }
  // For calls that make the object through a pointer (cudnnCreate*) or take one (CLBlast's queue).
  T* address() { return &object_; }
  void reset() {
    // A release error cannot be acted on in a destructor; the process ends soon after anyway.
    if (object_ != nullptr) static_cast<void>(Release(object_));
    object_ = nullptr;
  }

 private:
  T object_ = nullptr;
};

}  // namespace perfzero::bench
