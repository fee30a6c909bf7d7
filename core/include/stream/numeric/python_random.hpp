// Python's `random.Random(seed)` for a non-negative integer seed below 2^32: the same Mersenne
// Twister, seeded the way CPython seeds it (init_by_array with the seed as one 32-bit key word),
// with `getrandbits`, `_randbelow` and `shuffle` as CPython 3.x implements them. The reference
// orders mapping variants with `random.Random(42).shuffle` (dse §3.2); std::mt19937 has the same
// generator but seeds it differently, and std::shuffle draws differently, so neither reproduces it.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <utility>
#include <vector>

namespace stream::numeric {

class PythonRandom {
 public:
  explicit PythonRandom(std::uint32_t seed) {
    init_genrand(19650218U);
    // init_by_array with key = {seed}: CPython's key is the seed's 32-bit words, here one word.
    std::size_t i = 1;
    for (std::size_t k = kN; k > 0; --k) {
      mt_[i] = (mt_[i] ^ ((mt_[i - 1] ^ (mt_[i - 1] >> 30)) * 1664525U)) + seed;
      if (++i >= kN) {
        mt_[0] = mt_[kN - 1];
        i = 1;
      }
    }
    for (std::size_t k = kN - 1; k > 0; --k) {
      mt_[i] = (mt_[i] ^ ((mt_[i - 1] ^ (mt_[i - 1] >> 30)) * 1566083941U)) - static_cast<std::uint32_t>(i);
      if (++i >= kN) {
        mt_[0] = mt_[kN - 1];
        i = 1;
      }
    }
    mt_[0] = 0x80000000U;
  }

  /// `getrandbits(k)` for 1 <= k <= 32.
  std::uint32_t getrandbits(int k) { return next() >> (32 - k); }

  /// `_randbelow(n)` for 1 <= n < 2^32: rejection on `n.bit_length()` bits.
  std::uint32_t randbelow(std::uint32_t n) {
    const int k = std::bit_width(n);
    std::uint32_t r = getrandbits(k);
    while (r >= n) r = getrandbits(k);
    return r;
  }

  /// `shuffle(x)`: Fisher-Yates from the end, as CPython's.
  template <typename T>
  void shuffle(std::vector<T>& x) {
    for (std::size_t i = x.size(); i-- > 1;) {
      const std::size_t j = randbelow(static_cast<std::uint32_t>(i + 1));
      std::swap(x[i], x[j]);
    }
  }

 private:
  static constexpr std::size_t kN = 624, kM = 397;

  void init_genrand(std::uint32_t s) {
    mt_[0] = s;
    for (std::size_t i = 1; i < kN; ++i)
      mt_[i] = 1812433253U * (mt_[i - 1] ^ (mt_[i - 1] >> 30)) + static_cast<std::uint32_t>(i);
    index_ = kN;
  }

  std::uint32_t next() {
    if (index_ >= kN) twist();
    std::uint32_t y = mt_[index_++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    return y ^ (y >> 18);
  }

  void twist() {
    for (std::size_t i = 0; i < kN; ++i) {
      const std::uint32_t y = (mt_[i] & 0x80000000U) | (mt_[(i + 1) % kN] & 0x7fffffffU);
      mt_[i] = mt_[(i + kM) % kN] ^ (y >> 1) ^ ((y & 1U) ? 0x9908b0dfU : 0U);
    }
    index_ = 0;
  }

  std::array<std::uint32_t, kN> mt_{};
  std::size_t index_ = kN;
};

}  // namespace stream::numeric
