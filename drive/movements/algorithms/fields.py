"""Finite fields GF(p^k) and their direct products, just enough for whist designs.

An element of GF(p^k) is an int 0..q-1 whose base-p digits are the
coefficients of a polynomial reduced modulo a primitive polynomial.
"""
from __future__ import annotations

from functools import cache
from itertools import product


def factor_prime_power(q: int) -> tuple[int, int] | None:
    """q = p^k -> (p, k); None if q is not a prime power."""
    for p in range(2, q + 1):
        if q % p == 0:
            k = 0
            while q % p == 0:
                q //= p
                k += 1
            return (p, k) if q == 1 else None
    return None


class Field:
    """GF(q) with log/exp tables over a primitive element x (elements are ints)."""

    def __init__(self, q: int):
        pk = factor_prime_power(q)
        if pk is None:
            raise ValueError(f"{q} is not a prime power")
        self.q, (self.p, self.k) = q, pk
        self.exp = self._primitive_powers()
        self.log = {e: i for i, e in enumerate(self.exp)}

    def _times_x(self, a: int, poly: tuple[int, ...]) -> int:
        p, k = self.p, self.k
        digits = [(a // p**i) % p for i in range(k)]
        top = digits[-1]
        shifted = [0] + digits[:-1]
        # x^k = -(poly[0] + poly[1] x + ... + poly[k-1] x^(k-1))
        reduced = [(shifted[i] - top * poly[i]) % p for i in range(k)]
        return sum(d * p**i for i, d in enumerate(reduced))

    def _primitive_powers(self) -> list[int]:
        """Powers of x, for the first monic polynomial making x primitive."""
        q, p, k = self.q, self.p, self.k
        if k == 1:
            for g in range(1, p):
                powers = [pow(g, i, p) for i in range(p - 1)]
                if len(set(powers)) == p - 1:
                    return powers
        for poly in product(range(p), repeat=k):
            if poly[0] == 0:
                continue
            powers, a = [], 1
            for _ in range(q - 1):
                powers.append(a)
                a = self._times_x(a, poly)
            if a == 1 and len(set(powers)) == q - 1:
                return powers
        raise AssertionError("no primitive polynomial")

    def add(self, a: int, b: int) -> int:
        if self.k == 1:
            return (a + b) % self.p
        p, out, i = self.p, 0, 1
        while a or b:
            out += ((a % p + b % p) % p) * i
            a, b, i = a // p, b // p, i * p
        return out

    def neg(self, a: int) -> int:
        return self.mul(a, self.exp[(self.q - 1) // 2]) if a else 0

    def mul(self, a: int, b: int) -> int:
        if a == 0 or b == 0:
            return 0
        return self.exp[(self.log[a] + self.log[b]) % (self.q - 1)]


@cache
def field(q: int) -> Field:
    return Field(q)


def prime_power_factors(v: int) -> list[int]:
    """v -> its prime-power factors [p1^k1, p2^k2, ...]."""
    out, p = [], 2
    while v > 1:
        if v % p == 0:
            q = 1
            while v % p == 0:
                v //= p
                q *= p
            out.append(q)
        p += 1
    return out
