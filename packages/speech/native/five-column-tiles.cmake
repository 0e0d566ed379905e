# Beam search (5 beams) and the temperature fallback's 5 candidates give every decoder step 5 token
# columns. llamafile's tinyBLAS (ggml-options.cmake) tiles q8_0 products at most 4 columns wide
# (2 with AVX2's 16 vector registers), so it read each weight matrix two or three times per step:
# 4 + 1 columns with AVX-512, 2 + 2 + 1 with AVX2. A decoder step is bound by reading its weights
# (about 50 MB with base), so each step now reads them once:
# - 32 vector registers (AVX-512): a 4×5 tile (20 accumulators). 23 short French, German and
#   Spanish sentences on one thread, 7 alternated runs: mean 34.9 -> 32.6 s.
# - 16 (AVX2): a 1×5 tile (5 accumulators; 2×5 and 3×5 were slower, their accumulators spilling).
#   A 7.1 s French sentence with beam 5 on one thread (AMD EPYC): 2.02-2.22 -> 1.51-1.68 s, the
#   decoder's part about 1.3 -> 0.8 s; 35 French, German and Spanish clips, beam 5 and greedy: 143.8 -> 124.8 s.
# Each output is still the same sum in the same order (the same text, times and probabilities, bit
# for bit). Wider 1×N tiles for the encoder's many columns were no faster than tinyBLAS's 4×2.
# mnpack's first lines, and what follows them in tinyBLAS_Q0_AVX only (the anchor must be unique).
set(_verbatim_mnpack "    void mnpack(int64_t m0, int64_t m, int64_t n0, int64_t n) {
        int64_t mc, nc, mp, np;
")
set(_verbatim_q0_avx_switch "        switch ((MIN(m - m0, 4) << 4) | MIN(n - n0, 4)) {
#if VECTOR_REGISTERS == 32
        case 0x44:
            mc = 4;
            nc = 4;
#if defined(__AVX2__) && defined(__F16C__)
            gemm4xN<4>(m0, m, n0, n);")
set(_verbatim_five_columns "#if defined(__AVX2__) && defined(__F16C__)
        // verbatim_five_columns: one pass (packages/speech/native/five-column-tiles.cmake).
#if VECTOR_REGISTERS == 32
        if (m - m0 >= 4 && n - n0 == 5) {
            gemm4xN<5>(m0, m, n0, n);
            mnpack(m0 + (m - m0) / 4 * 4, m, n0, n);
            return;
        }
#else
        if (m - m0 >= 1 && n - n0 == 5) {
            gemm1xN<5>(m0, m, n0, n);
            return;
        }
#endif
#endif
")
set(_verbatim_tiles "${_verbatim_mnpack}${_verbatim_q0_avx_switch}")
set(_verbatim_tiles_patched "${_verbatim_mnpack}${_verbatim_five_columns}${_verbatim_q0_avx_switch}")
# The 1×N tile, beside tinyBLAS's 4×N one (inside its AVX2 section): gemm4xN's arithmetic, one row
# at a time (the scale of a block product is the same float product, da × db).
set(_verbatim_4xn_heading "// Templated functions for gemm of dimensions 4xN
")
set(_verbatim_1xn_and_4xn "// Templated functions for gemm of dimensions 1xN (verbatim_five_columns)
    template <int RN>
    NOINLINE void gemm1xN(int64_t m0, int64_t m, int64_t n0, int64_t n) {
        int64_t ytiles = m - m0;
        int64_t xtiles = (n - n0) / RN;
        int64_t tiles = xtiles * ytiles;
        int64_t duty = (tiles + nth - 1) / nth;
        int64_t start = duty * ith;
        int64_t end = start + duty;
        if (end > tiles)
            end = tiles;
        for (int64_t job = start; job < end; ++job) {
            int64_t ii = m0 + job / xtiles;
            int64_t jj = n0 + job % xtiles * RN;
            __m256 Cv[RN] = {};
            for (int64_t l = 0; l < k; ++l) {
                __m256i avec = load(A + lda * ii + l);
                __m256i aabs = _mm256_sign_epi8(avec, avec);
                float da = unhalf(A[lda * ii + l].d);
                for (int64_t j = 0; j < RN; ++j)
                    Cv[j] = madd(_mm256_set1_ps(da * unhalf(B[ldb * (jj + j) + l].d)),
                                 updot(aabs, _mm256_sign_epi8(load(B + ldb * (jj + j) + l), avec)),
                                 Cv[j]);
            }
            for (int64_t j = 0; j < RN; ++j)
                C[ldc * (jj + j) + ii] = hsum(Cv[j]);
        }
    }

// Templated functions for gemm of dimensions 4xN
")
verbatim_patch_source(ggml/src/ggml-cpu/llamafile/sgemm.cpp five-column-tiles.cmake verbatim_five_columns
  _verbatim_tiles _verbatim_tiles_patched _verbatim_4xn_heading _verbatim_1xn_and_4xn)
