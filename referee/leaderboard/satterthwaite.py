"""The degrees of freedom of the block model's contrasts (`blocks.py`): Bell and McCaffrey's
Satterthwaite approximation for the CR2 variance.

For a contrast theta_a - theta_b, with v_c the cluster's CR2-adjusted direction (see
`blocks.Leverage`), n_c = |v_c|^2 and q_c = v_c' H_cc v_c, the working model of independent,
equally variable block results gives the C x C matrix M = D - V'HV, D = diag(n_c), H the hat
matrix, and the degrees of freedom are (tr M)^2 / tr(M^2), with

    tr M = sum_c (n_c - q_c),    tr(M^2) = sum_c n_c^2 - 2 sum_c n_c q_c + |V'HV|^2.

The last term couples every cluster with every other: for one pair it costs about E^3, so
over all E^2 / 2 pairs about E^5.  Up to EXACT_ENTRANTS entrants it is computed for every pair
(`degrees_of_freedom`).  In a larger field the leaderboard uses a lower bound instead
(`lower_bound`): since 0 <= M <= D, tr(M^2) <= tr(MD) = sum_c n_c (n_c - q_c), so

    df >= (sum_c (n_c - q_c))^2 / sum_c n_c (n_c - q_c).

Fewer degrees of freedom give every test a larger p-value and every interval a wider span, so
the bound never separates a pair the exact figure would not: the verdicts keep the error rate
they claim, at some loss of power (measured by `benchmarks/verdict.py --part large`).  The
bound is a sum over clusters of functions of (z_ca, z_cb), each entrant's coordinates in the
cluster, so for every pair at once it is a few matrix products of (clusters x coordinates)
by E: about 13 C E^2 multiplications for C clusters at tables of four, seconds at 1,000
entrants.
"""

from __future__ import annotations

import numpy as np

from .blocks import Fit

EXACT_ENTRANTS = 100  # up to this many, every pair's exact degrees of freedom (about E^5 / 2)
BATCH_CELLS = 4_000_000  # numbers held per batch of pairs, or of clusters for the bound


def degrees_of_freedom(model: Fit, pairs: list[tuple[int, int]]) -> np.ndarray:
    """The exact degrees of freedom of theta_a - theta_b for each (a, b) of `pairs` (0 where
    the contrast has no variance to speak of)."""
    e = model.bread.shape[0]
    out = np.zeros(len(pairs))
    if not pairs:
        return out
    index = np.array(pairs, dtype=np.int64)
    per_pair = 2 * e * e + sum(lev.back.size * lev.back.shape[1] for lev in model.leverage)
    batch = max(1, BATCH_CELLS // per_pair)
    for start in range(0, len(pairs), batch):
        a, b = index[start:start + batch, 0], index[start:start + batch, 1]
        m = len(a)
        beta = model.bread[:, a] - model.bread[:, b]  # E x m
        trace = np.zeros(m)
        squares = np.zeros(m)
        k = np.zeros(m * e * e)
        for lev in model.leverage:
            z = lev.factor @ beta[lev.entrants]  # n x d x m
            n2 = (z ** 2).sum(axis=1)
            q = np.einsum("ndm,nde,nem->nm", z, lev.hat, z)
            trace += (n2 - q).sum(axis=0)
            squares += (n2 ** 2 - 2 * n2 * q).sum(axis=0)
            g = lev.back @ z  # n x s x m: X*_c' v_c on the cluster's entrants
            cell = lev.entrants[:, :, None] * e + lev.entrants[:, None, :]  # n x s x s
            key = np.arange(m) * e * e + cell[..., None]
            k += np.bincount(key.ravel(), weights=(g[:, :, None, :] * g[:, None, :, :]).ravel(),
                             minlength=m * e * e)
        bk = model.bread @ k.reshape(m, e, e)  # B K, K = sum_c g_c g_c'
        squares += np.einsum("mij,mji->m", bk, bk)  # |V'HV|^2 = tr(B K B K)
        with np.errstate(invalid="ignore", divide="ignore"):
            out[start:start + m] = np.where(squares > 0, trace ** 2 / squares, 0.0)
    return out


def lower_bound(model: Fit) -> np.ndarray:
    """E x E: for every pair, (sum_c (n_c - q_c))^2 / sum_c n_c (n_c - q_c), at most the
    exact degrees of freedom.  With u = z_ca - z_cb and K_c = I - G_c (G_c the cluster's
    `hat`), n_c - q_c = u'K u and n_c (n_c - q_c) = (u'u)(u'K u); both are expanded in
    z_ca and z_cb, so that each term is a product of two (clusters x coordinates) x E
    matrices."""
    e = model.bread.shape[0]
    own_trace = np.zeros(e)  # sum_c p'Kp, p = z_ca
    cross_trace = np.zeros((e, e))  # sum_c p'Kq, q = z_cb
    own_quartic = np.zeros(e)  # sum_c (p'p)(p'Kp)
    cross_quartic = np.zeros((e, e))  # the terms of the quartic with both p and q, halved
    for lev in model.leverage:
        n, d, _ = lev.factor.shape
        step = max(1, BATCH_CELLS // (d * d * e))
        upper = np.triu_indices(d)
        for start in range(0, n, step):
            part = slice(start, start + step)
            z = lev.factor[part] @ model.bread[lev.entrants[part]]  # n x d x E
            kz = z - lev.hat[part] @ z
            rows = len(z) * d
            pp = (z ** 2).sum(axis=1)  # n x E: p'p
            pkp = (z * kz).sum(axis=1)  # p'Kp
            own_trace += pkp.sum(axis=0)
            cross_trace += kz.reshape(rows, e).T @ z.reshape(rows, e)
            own_quartic += (pp * pkp).sum(axis=0)
            # (p'p + q'q - 2p'q)(p'Kp + q'Kq - 2p'Kq) less its terms in p alone or q alone:
            # (p'p)(q'Kq) + (q'q)(p'Kp) - 2(p'p + q'q)(p'Kq) - 2(p'q)(p'Kp + q'Kq)
            # + 4(p'q)(p'Kq); each pair of mirrored terms is one product and its transpose.
            phi = z[:, :, None, :] * kz[:, None, :, :]  # n x d x d x E: p_i (Kp)_j
            phi = phi + phi.transpose(0, 2, 1, 3) - np.eye(d)[None, :, :, None] * phi
            psi = z[:, :, None, :] * z[:, None, :, :]  # q_i q_j
            left = np.concatenate([pp, -2 * (pp[:, None, :] * kz + pkp[:, None, :] * z
                                             ).reshape(rows, e),
                                   2 * phi[:, upper[0], upper[1]].reshape(-1, e)])
            right = np.concatenate([pkp, z.reshape(rows, e),
                                    psi[:, upper[0], upper[1]].reshape(-1, e)])
            cross_quartic += left.T @ right
    trace = own_trace[:, None] + own_trace[None, :] - 2 * cross_trace
    quartic = own_quartic[:, None] + own_quartic[None, :] + cross_quartic + cross_quartic.T
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(quartic > 0, trace ** 2 / quartic, 0.0)


def every_pair(model: Fit) -> tuple[np.ndarray, bool]:
    """E x E degrees of freedom of every pair (the diagonal meaningless), and whether they
    are exact (up to EXACT_ENTRANTS entrants) or the lower bound."""
    e = model.bread.shape[0]
    if e > EXACT_ENTRANTS:
        return lower_bound(model), False
    a, b = np.triu_indices(e, 1)
    out = np.zeros((e, e))
    out[a, b] = degrees_of_freedom(model, list(zip(a.tolist(), b.tolist(), strict=True)))
    return out + out.T, True
