// The optimizer's random numbers: a SplitMix64 stream keyed by (seed, batch, slot), so that each
// neighbour's choices depend on where it stands in the search and not on which thread made it or
// what another neighbour drew. SplitMix64 (Steele, Lea, Flood 2014) is fully specified, unlike the
// standard library's distributions, so a seed gives the same search on every platform.
#pragma once

#include <cstddef>
#include <cstdint>

namespace stream::optimize {

class RandomStream {
 public:
  RandomStream(std::uint64_t seed, std::uint64_t batch, std::uint64_t slot)
      : state_(mix(mix(seed ^ 0x9E3779B97F4A7C15ull) ^ (batch * 0xD1B54A32D192ED03ull)) ^ (slot * 0x8CB92BA72F3D8DD7ull)) {}

  std::uint64_t next() { return mix(state_ += 0x9E3779B97F4A7C15ull); }
  /// Uniform in [0, n) (n > 0); the bias of the modulo is below 2^-40 for the sizes used here.
  std::size_t below(std::size_t n) { return static_cast<std::size_t>(next() % n); }
  /// Uniform in [0, 1).
  double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

 private:
  static std::uint64_t mix(std::uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  std::uint64_t state_;
};

}  // namespace stream::optimize
