# whisper.cpp reads the probability of <|nospeech|> from the first row of its logits buffer, a row the
# decoder never writes (only the last prompt token's logits are copied out), so no_speech_prob was
# ~0 for every segment: its own silence rule (no_speech_thold with logprob_thold) never fired, nor our
# guards that read it, and silence came out as "you". OpenAI's Whisper and faster-whisper read it at
# the position of <|startoftranscript|>, which follows the previous text when there is one. This asks
# the decoder for that row too and reads the probability there (as whisper.cpp's open pull requests
# 3945 and 4068 do).
set(_verbatim_prep "                whisper_batch_prep_legacy(state->batch, prompt.data(), prompt.size(), 0, 0);\n")
set(_verbatim_prep_patched "${_verbatim_prep}
                // Verbatim: the logits at <|startoftranscript|> give no_speech_prob (see
                // packages/speech/native/no-speech-probability.cmake).
                const int verbatim_sot_index = (int) prompt.size() - (int) prompt_init.size();
                state->batch.logits[verbatim_sot_index] = 1;
")
set(_verbatim_read "                    whisper_compute_logprobs(state->logits, n_logits, logprobs);\n                    whisper_compute_probs(state->logits, n_logits, logprobs, probs);\n")
set(_verbatim_read_patched "                    const std::vector<float> verbatim_sot_row(
                        state->logits.begin() + (size_t) verbatim_sot_index * n_logits,
                        state->logits.begin() + (size_t) (verbatim_sot_index + 1) * n_logits);
                    whisper_compute_logprobs(verbatim_sot_row, n_logits, logprobs);
                    whisper_compute_probs(verbatim_sot_row, n_logits, logprobs, probs);
")
verbatim_patch_whisper(no-speech-probability.cmake verbatim_sot_row
  _verbatim_prep _verbatim_prep_patched
  _verbatim_read _verbatim_read_patched)
