#pragma once
// A vector with a fixed capacity stored inline, so that a State stays one flat, cheap-to-copy
// block of memory (no heap allocation, cloning is a memcpy).
#include <algorithm>
#include <array>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace gcor::engine {

template <class T, std::size_t N>
class StaticVector {
    static_assert(std::is_trivially_copyable_v<T>);
    static_assert(N < 256);

  public:
    using value_type = T;
    using iterator = T*;
    using const_iterator = const T*;

    constexpr StaticVector() = default;
    constexpr StaticVector(std::initializer_list<T> items) {
        for (const T& item : items)
            push_back(item);
    }

    constexpr std::size_t size() const { return size_; }
    constexpr bool empty() const { return size_ == 0; }
    static constexpr std::size_t capacity() { return N; }
    constexpr bool full() const { return size_ == N; }

    constexpr T* begin() { return items_.data(); }
    constexpr T* end() { return items_.data() + size_; }
    constexpr const T* begin() const { return items_.data(); }
    constexpr const T* end() const { return items_.data() + size_; }

    constexpr T& operator[](std::size_t i) {
        assert(i < size_);
        return items_[i];
    }
    constexpr const T& operator[](std::size_t i) const {
        assert(i < size_);
        return items_[i];
    }
    constexpr T& back() { return (*this)[size_ - 1u]; }
    constexpr const T& back() const { return (*this)[size_ - 1u]; }

    constexpr void clear() { size_ = 0; }
    constexpr void push_back(const T& item) {
        assert(size_ < N);
        items_[size_++] = item;
    }
    constexpr T pop_back() {
        assert(size_ > 0);
        return items_[--size_];
    }
    // Keeps the order of the remaining items.
    constexpr void erase_at(std::size_t i) {
        assert(i < size_);
        std::copy(begin() + i + 1, end(), begin() + i);
        --size_;
    }
    constexpr void insert_at(std::size_t i, const T& item) {
        assert(i <= size_ && size_ < N);
        std::copy_backward(begin() + i, end(), end() + 1);
        items_[i] = item;
        ++size_;
    }
    constexpr bool contains(const T& item) const {
        return std::find(begin(), end(), item) != end();
    }
    // Returns the index of the first equal item, or size() when there is none.
    constexpr std::size_t index_of(const T& item) const {
        return static_cast<std::size_t>(std::find(begin(), end(), item) - begin());
    }

    friend constexpr bool operator==(const StaticVector& a, const StaticVector& b) {
        return std::equal(a.begin(), a.end(), b.begin(), b.end());
    }

  private:
    std::array<T, N> items_{};
    std::uint8_t size_ = 0;
};

}  // namespace gcor::engine
