# whisper.cpp's beam search does not take each beam's best tokens: it draws beam_size tokens from
# the beam's probabilities (std::discrete_distribution, the same draw it uses for sampling at a
# temperature), so a confident beam offers its top token several times over and the beams soon
# follow one path; and at the first step every beam takes the same token. This makes it the beam
# search of OpenAI's Whisper and faster-whisper at temperature 0: each beam offers its beam_size
# most probable tokens, and the beams are the best distinct sequences from the first step on.
# Sampling at a temperature (the fallback) is unchanged: the same function still draws then.
# bench:speech (base, beam 5): de 20.16 -> 15.50 %, es 14.84 -> 15.38 %, fr 19.42 % the same, en
# 4.98 -> 5.09 % (with a guard against a sentence said twice in one segment, which the real beam
# found on a short clip, see hallucination-guards.ts); all 9.53 -> 9.26 %.
set(_verbatim_signature "static std::vector<whisper_token_data> whisper_sample_token_topk(
            whisper_context & ctx,
            whisper_decoder & decoder,
                        int   k) {")
set(_verbatim_signature_patched "static std::vector<whisper_token_data> whisper_sample_token_topk(
            whisper_context & ctx,
            whisper_decoder & decoder,
                        int   k,
                       bool   verbatim_draw) {")
# Its k best tokens by logit are already sorted to the front (and then unused): the beam takes them.
set(_verbatim_draw "    std::discrete_distribution<> dist(probs.begin(), probs.end());

    for (int i = 0; i < k; ++i) {
        const auto id = dist(decoder.rng);")
set(_verbatim_top_k "    // Verbatim: see packages/speech/native/beam-top-k.cmake.
    std::discrete_distribution<> dist = verbatim_draw
        ? std::discrete_distribution<>(probs.begin(), probs.end())
        : std::discrete_distribution<>();

    for (int i = 0; i < k; ++i) {
        if (!verbatim_draw && logits_id[i].first == -INFINITY) {
            break;
        }
        const auto id = verbatim_draw ? dist(decoder.rng) : logits_id[i].second;")
set(_verbatim_beam_call "whisper_sample_token_topk(*ctx, decoder, params.beam_search.beam_size);")
set(_verbatim_beam_call_patched "whisper_sample_token_topk(*ctx, decoder, params.beam_search.beam_size, t_cur > 0.0f);")
set(_verbatim_first_step "whisper_sequence_tokens_equal(beam_candidates[cur_c].sequence, cur.sequence) && i > 0) {")
set(_verbatim_every_step "whisper_sequence_tokens_equal(beam_candidates[cur_c].sequence, cur.sequence)) {")
verbatim_patch_whisper(beam-top-k.cmake verbatim_draw
  _verbatim_signature _verbatim_signature_patched
  _verbatim_draw _verbatim_top_k
  _verbatim_beam_call _verbatim_beam_call_patched
  _verbatim_first_step _verbatim_every_step)
