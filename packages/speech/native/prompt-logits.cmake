# whisper.cpp's decoder projects every token of a batch onto the vocabulary (51,865 logits each) and
# then copies out only the rows it asked for: for the prompt pass, the previous text carried as
# prompt (up to ~70 tokens), that was a vocabulary product per prompt token of which two rows are
# read (<|startoftranscript|>'s, see no-speech-probability.cmake, and the last). This projects only
# the rows asked for, as llama.cpp does with its output ids; beam steps, where every row is read,
# are unchanged. The same logits bit for bit: each row's products are the same sums.
set(_verbatim_projection "    struct ggml_tensor * logits = ggml_mul_mat(ctx0, model.d_te, cur);\n")
set(_verbatim_projection_patched "    // Verbatim: only the rows whose logits are read (see packages/speech/native/prompt-logits.cmake).
    int verbatim_n_outputs = 0;
    for (int i = 0; i < n_tokens; ++i) {
        verbatim_n_outputs += batch.logits[i] != 0;
    }
    if (!worst_case && verbatim_n_outputs > 0 && verbatim_n_outputs < n_tokens) {
        struct ggml_tensor * verbatim_output_rows = ggml_new_tensor_1d(ctx0, GGML_TYPE_I32, verbatim_n_outputs);
        ggml_set_name(verbatim_output_rows, \"verbatim_output_rows\");
        ggml_set_input(verbatim_output_rows);
        cur = ggml_get_rows(ctx0, cur, verbatim_output_rows);
    }

    struct ggml_tensor * logits = ggml_mul_mat(ctx0, model.d_te, cur);
")
set(_verbatim_last_node "        logits = ggml_graph_node(gf, -1);\n")
set(_verbatim_last_node_patched "        {
            struct ggml_tensor * verbatim_output_rows = ggml_graph_get_tensor(gf, \"verbatim_output_rows\");
            if (verbatim_output_rows) {
                std::vector<int32_t> rows;
                for (int i = 0; i < n_tokens; ++i) {
                    if (batch.logits[i] != 0) {
                        rows.push_back(i);
                    }
                }
                ggml_backend_tensor_set(verbatim_output_rows, rows.data(), 0, rows.size()*sizeof(int32_t));
            }
        }

${_verbatim_last_node}")
set(_verbatim_copy_out "    logits_out.resize(n_tokens*n_vocab);
    for (int i = 0; i < n_tokens; i++) {
        if (batch.logits[i] == 0) {
            continue;
        }
        ggml_backend_tensor_get(logits, logits_out.data() + (n_vocab*i), sizeof(float)*(n_vocab*i), sizeof(float)*n_vocab);
    }
")
set(_verbatim_copy_out_patched "    logits_out.resize(n_tokens*n_vocab);
    // Verbatim: the graph's logits hold only the rows asked for, in order, when it projected fewer.
    int verbatim_row = 0;
    for (int i = 0; i < n_tokens; i++) {
        if (batch.logits[i] == 0) {
            continue;
        }
        const int row = logits->ne[1] == n_tokens ? i : verbatim_row++;
        ggml_backend_tensor_get(logits, logits_out.data() + (n_vocab*i), sizeof(float)*(n_vocab*row), sizeof(float)*n_vocab);
    }
")
verbatim_patch_whisper(prompt-logits.cmake verbatim_output_rows
  _verbatim_projection _verbatim_projection_patched
  _verbatim_last_node _verbatim_last_node_patched
  _verbatim_copy_out _verbatim_copy_out_patched)
