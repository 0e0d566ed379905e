# whisper.cpp checks the abort callback of whisper_full only between graphs: after the whole encoder
# and after each decoder step. A live partial that a sentence's final cancels went on encoding for
# 0.1-0.9 s (measured, base, one thread), holding the core the final would have borrowed. This passes
# the callback to the scheduler's CPU backend too, which checks it before every graph node, so a
# cancelled run stops within milliseconds.
set(_verbatim_helper "static bool ggml_graph_compute_helper(\n      ggml_backend_sched_t   sched,")
set(_verbatim_helper_patched "// Verbatim: the abort callback of the encode or decode running on this thread, for the scheduler's
// CPU backend (see packages/speech/native/abortable-encoder.cmake).
static thread_local ggml_abort_callback verbatim_abort_callback = nullptr;
static thread_local void * verbatim_abort_callback_data = nullptr;
struct verbatim_abort_scope {
    verbatim_abort_scope(ggml_abort_callback callback, void * data) {
        verbatim_abort_callback = callback;
        verbatim_abort_callback_data = data;
    }
    ~verbatim_abort_scope() {
        verbatim_abort_callback = nullptr;
        verbatim_abort_callback_data = nullptr;
    }
};

${_verbatim_helper}")
set(_verbatim_threads "            fn_set_n_threads(backend, n_threads);\n        }\n")
set(_verbatim_threads_patched "${_verbatim_threads}
        auto * fn_set_abort_callback = (ggml_backend_set_abort_callback_t) ggml_backend_reg_get_proc_address(reg, \"ggml_backend_set_abort_callback\");
        if (fn_set_abort_callback) {
            fn_set_abort_callback(backend, verbatim_abort_callback, verbatim_abort_callback_data);
        }
")
set(_verbatim_internal "    ggml_abort_callback   abort_callback,\n                   void * abort_callback_data) {\n")
set(_verbatim_internal_patched "${_verbatim_internal}    verbatim_abort_scope verbatim_abort(abort_callback, abort_callback_data);\n")
verbatim_patch_whisper(abortable-encoder.cmake verbatim_abort_scope
  _verbatim_helper _verbatim_helper_patched
  _verbatim_threads _verbatim_threads_patched
  _verbatim_internal _verbatim_internal_patched)
