# whisper.cpp's beam search goes on until every beam has ended: a beam that never says
# <|endoftext|> (whisper saying the sentence again, or looping) keeps the whole search stepping to
# the token limit after the best beams have ended. A 2 s German clip decoded with a one-sentence
# prompt (as every live final and every window after the first is): 0.5 s with a limit of 20
# tokens, 2.5 s without, the same text. OpenAI's Whisper and faster-whisper stop once beam_size
# sequences have ended (patience 1): the candidates ending with <|endoftext|> that rank above the
# beam_size-th candidate that goes on. This counts them the same way and, once there are beam_size
# and a beam has ended, ends the search: the beams still going are dropped (failed), and the best of
# those that ended is the result. Sampling at a temperature (the fallback) is unchanged.
set(_verbatim_loop "            for (int i = 0, n_max = whisper_n_text_ctx(ctx)/2 - 4; i < n_max; ++i) {")
set(_verbatim_loop_patched "            // Verbatim: see packages/speech/native/beam-stop.cmake.
            int verbatim_finished = 0;

            for (int i = 0, n_max = whisper_n_text_ctx(ctx)/2 - 4; i < n_max; ++i) {")
set(_verbatim_assign "                    uint32_t cur_c = 0;
")
set(_verbatim_assign_patched "                    if (t_cur < 1e-6f) {
                        int verbatim_going_on = 0;
                        for (size_t c = 0; c < beam_candidates.size() && verbatim_going_on < params.beam_search.beam_size; ++c) {
                            if (c > 0 && whisper_sequence_tokens_equal(beam_candidates[c].sequence, beam_candidates[c - 1].sequence)) {
                                continue;
                            }
                            if (beam_candidates[c].sequence.tokens.back().id == whisper_token_eot(ctx)) {
                                ++verbatim_finished;
                            } else {
                                ++verbatim_going_on;
                            }
                        }
                    }

                    uint32_t cur_c = 0;
")
set(_verbatim_all_finished "                // check if all decoders have finished (i.e. completed or failed)
")
set(_verbatim_all_finished_patched "                if (params.strategy == whisper_sampling_strategy::WHISPER_SAMPLING_BEAM_SEARCH && t_cur < 1e-6f &&
                    verbatim_finished >= params.beam_search.beam_size) {
                    bool verbatim_ended = false;
                    for (int j = 0; j < n_decoders_cur; ++j) {
                        verbatim_ended = verbatim_ended || (state->decoders[j].completed && !state->decoders[j].failed);
                    }
                    for (int j = 0; verbatim_ended && j < n_decoders_cur; ++j) {
                        if (!state->decoders[j].completed) {
                            state->decoders[j].failed = true;
                        }
                    }
                }

                // check if all decoders have finished (i.e. completed or failed)
")
verbatim_patch_whisper(beam-stop.cmake verbatim_finished
  _verbatim_loop _verbatim_loop_patched
  _verbatim_assign _verbatim_assign_patched
  _verbatim_all_finished _verbatim_all_finished_patched)
