# Text the decoder continues from, after <|startoftranscript|>, the language and the task: OpenAI's
# Whisper `prefix`, which whisper.cpp lacks. A live phrase after words that became final at a pause
# is decoded with their audio before it and their text as the prefix (see PhraseContext in
# streaming-recogniser.ts). Set per call from Rust (`verbatim_set_decoder_prefix`, thread-local: each
# recogniser runs its decodes on its own thread); the prefix goes into the first window's prompt
# only, the first token is then no longer constrained as an initial timestamp, and the row of
# <|startoftranscript|> (no-speech-probability.cmake) stays where it is.
set(_vp_fn "static void whisper_process_logits(\n")
set(_vp_fn_patched "static thread_local std::vector<whisper_token> verbatim_decoder_prefix;
extern \"C\" void verbatim_set_decoder_prefix(const whisper_token * tokens, int n) {
    verbatim_decoder_prefix.assign(tokens, tokens + n);
}

${_vp_fn}")
set(_vp_initial "    const bool is_initial = tokens_cur.size() == 0;\n")
set(_vp_initial_patched "    const bool is_initial = tokens_cur.size() == 0 && verbatim_decoder_prefix.empty();\n")
set(_vp_prompt "                prompt.insert(prompt.end(), prompt_init.begin(), prompt_init.end());\n")
set(_vp_prompt_patched "${_vp_prompt}                int verbatim_prefix_in_prompt = 0;
                if (seek == seek_start) {
                    prompt.insert(prompt.end(), verbatim_decoder_prefix.begin(), verbatim_decoder_prefix.end());
                    verbatim_prefix_in_prompt = (int) verbatim_decoder_prefix.size();
                }
")
set(_vp_sot "const int verbatim_sot_index = (int) prompt.size() - (int) prompt_init.size();")
set(_vp_sot_patched "const int verbatim_sot_index = (int) prompt.size() - (int) prompt_init.size() - verbatim_prefix_in_prompt;")
verbatim_patch_whisper(decoder-prefix.cmake verbatim_decoder_prefix
  _vp_fn _vp_fn_patched
  _vp_initial _vp_initial_patched
  _vp_prompt _vp_prompt_patched
  _vp_sot _vp_sot_patched)
