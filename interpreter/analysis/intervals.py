"""95 % intervals and tests on lists of numbers, standard library only (manual, "Analysing a game").

Every function returns None where a number is undefined (no games; one game has no spread), so
the results go to JSON as null and never as NaN.
"""
from __future__ import annotations

import math
import statistics
import sys
from fractions import Fraction
from functools import lru_cache

LEVEL = 0.95
_EPS = 1e-15
_TINY = 1e-300
_SQRT_BITS = 2 * sys.float_info.mant_dig + 3      # as statistics rounds its square roots


def normal_quantile(p: float) -> float:
    """The standard normal quantile: the z with P(Z <= z) = p."""
    return statistics.NormalDist().inv_cdf(p)


Z95 = normal_quantile(0.5 + LEVEL / 2)


def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz)."""
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > _TINY else _TINY)
    h = d
    for m in range(1, 10_000):
        for num in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                    -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1.0 + num * d
            d = 1.0 / (d if abs(d) > _TINY else _TINY)
            c = 1.0 + num / c
            c = c if abs(c) > _TINY else _TINY
            h *= d * c
        if abs(d * c - 1.0) < _EPS:
            break
    return h


def betainc(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    log_front = (math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                 + a * math.log(x) + b * math.log1p(-x))
    # the fraction converges fast only below the mean; above it use the symmetry I_x(a,b) = 1 - I_1-x(b,a)
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(log_front) * _beta_fraction(a, b, x) / a
    return 1.0 - math.exp(log_front) * _beta_fraction(b, a, 1.0 - x) / b


def t_cdf(t: float, df: float) -> float:
    """P(T <= t) for Student's t with df degrees of freedom."""
    tail = 0.5 * betainc(df / 2.0, 0.5, df / (df + t * t))
    return 1.0 - tail if t > 0 else tail


def t_two_sided_p(t: float, df: float) -> float:
    """P(|T| >= |t|) for Student's t with df degrees of freedom."""
    return betainc(df / 2.0, 0.5, df / (df + t * t))


def t_pdf(t: float, df: float) -> float:
    """The density of Student's t with df degrees of freedom."""
    return math.exp(math.lgamma((df + 1) / 2) - math.lgamma(df / 2) - 0.5 * math.log(df * math.pi)
                    - (df + 1) / 2 * math.log1p(t * t / df))


@lru_cache(maxsize=4096)
def t_quantile(p: float, df: float) -> float:
    """Student's t quantile: the t with P(T <= t) = p (Newton's method on the exact distribution, kept in a bracket)."""
    if not 0.0 < p < 1.0 or df <= 0:
        raise ValueError(f"t_quantile needs 0 < p < 1 and df > 0, got p={p}, df={df}")
    if p == 0.5:
        return 0.0
    if p < 0.5:
        return -t_quantile(1.0 - p, df)
    lo, hi = 0.0, 1.0
    while t_cdf(hi, df) < p:                     # t grows without bound as df falls: widen until it holds p
        lo, hi = hi, hi * 2.0
    t = min(max(normal_quantile(p), lo), hi)
    for _ in range(200):
        gap = t_cdf(t, df) - p
        lo, hi = (t, hi) if gap < 0 else (lo, t)
        step = gap / t_pdf(t, df)
        nxt = t - step if lo < t - step < hi else (lo + hi) / 2.0     # a step out of the bracket: bisect
        if abs(nxt - t) <= 1e-13 * (1.0 + abs(t)) or hi - lo <= 1e-13 * (1.0 + abs(t)):
            return nxt
        t = nxt
    return t


def _gamma_series(a: float, x: float) -> float:
    """The lower regularized incomplete gamma P(a, x) by its series (x < a + 1)."""
    term = total = 1.0 / a
    k = a
    while abs(term) > abs(total) * _EPS:
        k += 1.0
        term *= x / k
        total += term
    return total * math.exp(-x + a * math.log(x) - math.lgamma(a))


def _gamma_fraction(a: float, x: float) -> float:
    """The upper regularized incomplete gamma Q(a, x) by its continued fraction (x >= a + 1)."""
    b = x + 1.0 - a
    c, d = 1.0 / _TINY, 1.0 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = 1.0 / (d if abs(d) > _TINY else _TINY)
        c = b + an / c
        c = c if abs(c) > _TINY else _TINY
        h *= d * c
        if abs(d * c - 1.0) < _EPS:
            break
    return math.exp(-x + a * math.log(x) - math.lgamma(a)) * h


def chi2_sf(x: float, df: float) -> float:
    """P(X >= x) for a chi-square distribution with df degrees of freedom."""
    if df <= 0:
        raise ValueError(f"chi2_sf needs df > 0, got {df}")
    a, half = df / 2.0, x / 2.0
    if half <= 0:                                # x <= 0, or so small that x / 2 underflows
        return 1.0
    if half < a + 1.0:
        return max(0.0, 1.0 - _gamma_series(a, half))
    return _gamma_fraction(a, half)


def wilson(successes: float, n: int) -> tuple:
    """The Wilson score interval of a share; successes may be fractional (a tie split k ways gives 1/k)."""
    if n <= 0:
        return (None, None)
    share = min(max(successes / n, 0.0), 1.0)
    z2 = Z95 * Z95
    centre = (share + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 / (1 + z2 / n) * math.sqrt(share * (1 - share) / n + z2 / (4 * n * n))
    # at no successes (or all) the bound is exactly 0 (or 1); rounding must not move it past the share
    lo = 0.0 if share == 0 else max(0.0, min(share, centre - half))
    hi = 1.0 if share == 1 else min(1.0, max(share, centre + half))
    return (lo, hi)


def mean_ci(values: list) -> tuple:
    """The mean and its Student-t interval: (mean, lo, hi); (None, …) with no values, no interval for one."""
    n = len(values)
    if n == 0:
        return (None, None, None)
    mean = statistics.fmean(values)
    if n == 1:
        return (mean, None, None)
    if all(v == values[0] for v in values):     # no spread: the interval is the single value, width 0
        return (mean, mean, mean)
    return (mean, *mean_interval(mean, statistics.stdev(values), n))


def mean_interval(mean: float, sd: float, n: int) -> tuple:
    """(lo, hi): the Student-t interval of a mean of n > 1 values with sample standard deviation sd."""
    half = t_quantile(0.5 + LEVEL / 2, n - 1) * sd / math.sqrt(n)
    return (mean - half, mean + half)


def fraction_sqrt(q: Fraction) -> float:
    """The square root of an exact fraction q >= 0, correctly rounded (as statistics.stdev takes it)."""
    n, m = q.numerator, q.denominator
    shift = (n.bit_length() - m.bit_length() - _SQRT_BITS) // 2
    if shift >= 0:
        return (_isqrt_round_to_odd(n, m << 2 * shift) << shift) / 1
    return _isqrt_round_to_odd(n << -2 * shift, m) / (1 << -shift)


def _isqrt_round_to_odd(n: int, m: int) -> int:
    """The square root of n/m as a whole number, rounded to odd (so that one more rounding is exact)."""
    a = math.isqrt(n // m)
    return a | (a * a * m != n)


def binom_cdf(k: int, n: int) -> float:
    """P(B <= k) for B ~ Binomial(n, 1/2)."""
    if k < 0:
        return 0.0
    if k >= n:
        return 1.0
    return betainc(n - k, k + 1, 0.5)


def median_rank(n: int) -> int:
    """The 1-based rank k whose order statistics x(k), x(n+1-k) hold the median with ≥ 95 % (1 if none)."""
    best, lo, hi = 1, 1, n // 2
    while lo <= hi:                              # the largest k with 2 P(B <= k-1) <= 5 %
        mid = (lo + hi) // 2
        if 2 * binom_cdf(mid - 1, n) <= 1 - LEVEL:
            best, lo = mid, mid + 1
        else:
            hi = mid - 1
    return best


def median_coverage(n: int) -> float:
    """How often the order-statistic interval of `median_ci` holds the true median (≥ 95 % from 6 values)."""
    return 1.0 - 2 * binom_cdf(median_rank(n) - 1, n)


def median_ci(values: list) -> tuple:
    """The median and a distribution-free interval from order statistics: (median, lo, hi)."""
    ordered = sorted(values)
    return ranked_median_ci(len(ordered), ordered.__getitem__)


def ranked_median_ci(n: int, at) -> tuple:
    """`median_ci` of n values given `at(i)`, their i-th smallest (from 0): (median, lo, hi)."""
    if n == 0:
        return (None, None, None)
    median = at(n // 2) if n % 2 else (at(n // 2 - 1) + at(n // 2)) / 2     # as statistics.median
    if n == 1:
        return (median, None, None)
    k = median_rank(n)
    return (median, at(k - 1), at(n - k))


def _diff_result(value, half, t: float | None, df: float | None) -> dict:
    """A difference as {"value", "ci95", "p"}; half None when undefined, t None when there is no spread."""
    if value is None:
        return {"value": None, "ci95": [None, None], "p": None}
    if half is None:
        return {"value": value, "ci95": [None, None], "p": None}
    if t is None:                                # every difference the same: no doubt about it
        return {"value": value, "ci95": [value, value], "p": 1.0 if value == 0 else 0.0}
    return {"value": value, "ci95": [value - half, value + half], "p": t_two_sided_p(t, df)}


def paired_diff(a: list, b: list) -> dict:
    """B − A on paired values (game i of A with game i of B): mean difference, t interval, two-sided p."""
    if len(a) != len(b):
        raise ValueError(f"paired values need equal lengths, got {len(a)} and {len(b)}")
    diffs = [y - x for x, y in zip(a, b)]
    n = len(diffs)
    if n == 0:
        return _diff_result(None, None, None, None)
    mean = statistics.fmean(diffs)
    if n == 1:
        return _diff_result(mean, None, None, None)
    sd = statistics.stdev(diffs)
    if sd == 0 or all(d == diffs[0] for d in diffs):
        return _diff_result(diffs[0], 0.0, None, None)
    se = sd / math.sqrt(n)
    return _diff_result(mean, t_quantile(0.5 + LEVEL / 2, n - 1) * se, mean / se, n - 1)


def unpaired_diff(a: list, b: list) -> dict:
    """mean(B) − mean(A) on independent samples: Welch's t interval and two-sided p."""
    if not a or not b:
        return _diff_result(None, None, None, None)
    value = statistics.fmean(b) - statistics.fmean(a)
    if len(a) < 2 or len(b) < 2:
        return _diff_result(value, None, None, None)
    va, vb = statistics.variance(a) / len(a), statistics.variance(b) / len(b)
    if va + vb == 0:
        return _diff_result(value, 0.0, None, None)
    se = math.sqrt(va + vb)
    df = (va + vb) ** 2 / (va * va / (len(a) - 1) + vb * vb / (len(b) - 1))
    return _diff_result(value, t_quantile(0.5 + LEVEL / 2, df) * se, value / se, df)


def paired_power(n: int, effect: float, alpha: float = 0.05) -> float:
    """The power of a two-sided paired t test on n games when the true mean difference is `effect` sds.

    P(T' > t) for the noncentral t with n − 1 df and noncentrality effect·√n, integrated over the
    chi of the sd (u = √v, within 8 of √(n − 1), where all but e^-30 of it lies; Simpson's rule).
    The other tail, below −t, is left out: it is negligible wherever 80 % power is near.
    """
    df, shift = n - 1, effect * math.sqrt(n)
    crit = t_quantile(1 - alpha / 2, df)
    low, high, steps = max(0.0, math.sqrt(df) - 8.0), math.sqrt(df) + 8.0, 160
    width = (high - low) / steps
    log_norm = math.log(2.0) - (df / 2.0) * math.log(2.0) - math.lgamma(df / 2.0)
    total = 0.0
    for i in range(steps + 1):
        u = low + i * width
        if u <= 0:
            continue
        density = math.exp(log_norm + (df - 1) * math.log(u) - u * u / 2.0)
        weight = 1 if i in (0, steps) else 4 if i % 2 else 2
        total += weight * density * 0.5 * math.erfc((crit * u / math.sqrt(df) - shift) / math.sqrt(2.0))
    return total * width / 3.0


def games_needed(sd_of_diff: float, delta: float, alpha: float = 0.05, power: float = 0.8) -> int:
    """Paired games needed to detect a true mean difference `delta` (two-sided test at `alpha`, `power`)."""
    if delta <= 0:
        raise ValueError(f"the difference to detect must be positive, got {delta}")
    if sd_of_diff <= 0:
        return 2                                 # no spread: two games show any difference
    effect = delta / sd_of_diff
    n = max(2, math.ceil(((normal_quantile(1 - alpha / 2) + normal_quantile(power)) / effect) ** 2))
    while paired_power(n, effect, alpha) < power:    # the normal guess is a little short: the fewest n enough
        n += 1
    return n
