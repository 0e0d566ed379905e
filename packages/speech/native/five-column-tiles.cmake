# Beam search (5 beams) and the temperature fallback's 5 candidates give every decoder step 5 token
# columns. llamafile's tinyBLAS (ggml-options.cmake) tiles q8_0 products at most 4 columns wide, so
# it read each weight matrix twice per step: once for 4 columns, once for the fifth (perf on beam-5
# decodes of short sentences: 7 % of the time in that second, one-column pass). With 32 vector
# registers (AVX-512), a 4×5 tile fits (20 accumulators) and reads the weights once; each output is
# still the same sum in the same order.
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
set(_verbatim_five_columns "#if VECTOR_REGISTERS == 32 && defined(__AVX2__) && defined(__F16C__)
        // verbatim_five_columns: one pass (packages/speech/native/five-column-tiles.cmake).
        if (m - m0 >= 4 && n - n0 == 5) {
            gemm4xN<5>(m0, m, n0, n);
            mnpack(m0 + (m - m0) / 4 * 4, m, n0, n);
            return;
        }
#endif
")
set(_verbatim_tiles "${_verbatim_mnpack}${_verbatim_q0_avx_switch}")
set(_verbatim_tiles_patched "${_verbatim_mnpack}${_verbatim_five_columns}${_verbatim_q0_avx_switch}")
verbatim_patch_source(ggml/src/ggml-cpu/llamafile/sgemm.cpp five-column-tiles.cmake verbatim_five_columns
  _verbatim_tiles _verbatim_tiles_patched)
