# whisper.cpp's beam search does not take each beam's best tokens: it draws beam_size tokens from
# the beam's probabilities (std::discrete_distribution, the same draw it uses for sampling at a
# temperature), so a confident beam offers its top token several times over and the beams soon
# follow one path; and at the first step every beam takes the same token. This makes it the beam
# search of OpenAI's Whisper and faster-whisper at temperature 0: each beam offers its beam_size
# most probable tokens, and the beams are the best distinct sequences from the first step on.
# Sampling at a temperature (the fallback) is unchanged. bench:speech (base, beam 5): de 20.16 ->
# 15.50 %, es 14.84 -> 15.38 %, fr 19.42 % the same, en 4.98 -> 5.09 % (with a guard against a
# sentence said twice in one segment, which the real beam found on a short clip, see
# hallucination-guards.ts); all 9.53 -> 9.26 %.
set(_verbatim_score_heading "// ref: https://github.com/openai/whisper/blob/0b1ba3d46ebf7fe6f953acfd8cad62a4f851b49f/whisper/decoding.py#L178-L192
static void whisper_sequence_score(")
set(_verbatim_top_k_function "static std::vector<whisper_token_data> verbatim_top_k_tokens(
            whisper_context & ctx,
            whisper_decoder & decoder,
                        int   k) {
    const auto & vocab = ctx.vocab;

    const auto & probs    = decoder.probs;
    const auto & logprobs = decoder.logprobs;

    const int n_logits = vocab.n_vocab;

    auto & logits_id = decoder.logits_id;

    logits_id.resize(n_logits);
    for (int i = 0; i < n_logits; ++i) {
        logits_id[i].first = logprobs[i];
        logits_id[i].second = i;
    }

    k = std::min(k, n_logits);
    {
        using pair_type = std::remove_reference<decltype(logits_id)>::type::value_type;
        std::partial_sort(
                logits_id.begin(),
                logits_id.begin() + k, logits_id.end(),
                [](const pair_type & a, const pair_type & b) {
            return a.first > b.first || (a.first == b.first && a.second < b.second);
        });
    }

    whisper_token tid = vocab.token_beg;

    float pt    = 0.0;
    float ptsum = 0.0;

    {
        double sum_ts = 0.0;
        double max_ts = 0.0;

        for (int i = vocab.token_beg; i < n_logits; i++) {
            sum_ts += probs[i];
            if (max_ts < probs[i]) {
                max_ts = probs[i];
                tid = i;
            }
        }

        pt    = max_ts/(sum_ts + 1e-10);
        ptsum = sum_ts;
    }

    std::vector<whisper_token_data> result;
    result.reserve(k);

    for (int i = 0; i < k; ++i) {
        if (logits_id[i].first == -INFINITY) {
            break;
        }
        const whisper_token id = logits_id[i].second;

        result.push_back({ id, tid, probs[id], logprobs[id], pt, ptsum, -1, -1, -1, 0.0f, });

        if (result.back().id >= vocab.token_beg) {
            result.back().tid = result.back().id;
            result.back().pt  = result.back().p;
        }
    }

    return result;
}

${_verbatim_score_heading}")
set(_verbatim_beam_sample "                                        const auto tokens_new = whisper_sample_token_topk(*ctx, decoder, params.beam_search.beam_size);\n")
set(_verbatim_beam_top_k "                                        const auto tokens_new = t_cur < 1e-6f
                                            ? verbatim_top_k_tokens(*ctx, decoder, params.beam_search.beam_size)
                                            : whisper_sample_token_topk(*ctx, decoder, params.beam_search.beam_size);\n")
set(_verbatim_first_step "whisper_sequence_tokens_equal(beam_candidates[cur_c].sequence, cur.sequence) && i > 0) {")
set(_verbatim_every_step "whisper_sequence_tokens_equal(beam_candidates[cur_c].sequence, cur.sequence)) {")
verbatim_patch_whisper(beam-top-k.cmake verbatim_top_k_tokens
  _verbatim_score_heading _verbatim_top_k_function
  _verbatim_beam_sample _verbatim_beam_top_k
  _verbatim_first_step _verbatim_every_step)
