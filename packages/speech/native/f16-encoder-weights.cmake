# A q8_0 model's encoder matrices (and the decoder's cross-attention keys and values, which project
# the encoder's output) are widened to f16 as the model loads. These products have hundreds of
# columns (the audio's frames) and are bound by arithmetic, not by reading weights: without AVX-512
# VNNI, tinyBLAS's q8_0 kernel multiplies 8-bit integers in several steps (sign, maddubs, madd,
# convert) where its f16 kernel does one FMA per 8 values, and the activations are no longer rounded
# to 8 bits for each product. The decoder's other weights stay q8_0: one token's step is bound by
# reading them. f16 holds each q8_0 weight (an 8-bit integer times its block's f16 scale) to within
# f16's rounding; the encoder's weights take 40 MB instead of 21 MB.
set(_verbatim_weight_types "    const ggml_type wtype = wctx.wtype;\n")
set(_verbatim_weight_types_patched "${_verbatim_weight_types}    // Verbatim: see packages/speech/native/f16-encoder-weights.cmake.
    const ggml_type verbatim_encoder_wtype = wtype == GGML_TYPE_Q8_0 ? GGML_TYPE_F16 : wtype;
")
set(_verbatim_encoder_matrix "ASR_SYSTEM_ENCODER, ggml_new_tensor_2d(ctx, wtype,")
set(_verbatim_encoder_matrix_f16 "ASR_SYSTEM_ENCODER, ggml_new_tensor_2d(ctx, verbatim_encoder_wtype,")
set(_verbatim_cross_key "ASR_TENSOR_ATTN_KEY_WEIGHT, ASR_SYSTEM_CROSS, ggml_new_tensor_2d(ctx, wtype,")
set(_verbatim_cross_key_f16 "ASR_TENSOR_ATTN_KEY_WEIGHT, ASR_SYSTEM_CROSS, ggml_new_tensor_2d(ctx, verbatim_encoder_wtype,")
set(_verbatim_cross_value "ASR_TENSOR_ATTN_VALUE_WEIGHT, ASR_SYSTEM_CROSS, ggml_new_tensor_2d(ctx, wtype,")
set(_verbatim_cross_value_f16 "ASR_TENSOR_ATTN_VALUE_WEIGHT, ASR_SYSTEM_CROSS, ggml_new_tensor_2d(ctx, verbatim_encoder_wtype,")
# The whisper model's loader, not the VAD model's (which returns nullptr).
set(_verbatim_size_check "                return false;
            }

            const size_t bpe = ggml_type_size(ggml_type(ttype));\n")
set(_verbatim_size_check_patched "                return false;
            }

            if (ttype == GGML_TYPE_Q8_0 && tensor->type == GGML_TYPE_F16) {
                // Verbatim: a q8_0 matrix widened to f16 (see f16-encoder-weights.cmake).
                if (nelements % ggml_blck_size(GGML_TYPE_Q8_0) != 0) {
                    WHISPER_LOG_ERROR(\"%s: tensor '%s' is not whole q8_0 blocks\\n\", __func__, name.data());
                    return false;
                }
                std::vector<char> verbatim_q8(ggml_row_size(GGML_TYPE_Q8_0, nelements));
                loader->read(loader->context, verbatim_q8.data(), verbatim_q8.size());
                std::vector<float> verbatim_f32(nelements);
                ggml_get_type_traits(GGML_TYPE_Q8_0)->to_float(verbatim_q8.data(), verbatim_f32.data(), nelements);
                std::vector<ggml_fp16_t> verbatim_f16(nelements);
                ggml_fp32_to_fp16_row(verbatim_f32.data(), verbatim_f16.data(), nelements);
                ggml_backend_tensor_set(tensor, verbatim_f16.data(), 0, ggml_nbytes(tensor));
                total_size += ggml_nbytes(tensor);
                model.n_loaded++;
                continue;
            }

            const size_t bpe = ggml_type_size(ggml_type(ttype));\n")
verbatim_patch_whisper(f16-encoder-weights.cmake verbatim_encoder_wtype
  _verbatim_weight_types _verbatim_weight_types_patched
  _verbatim_encoder_matrix _verbatim_encoder_matrix_f16
  _verbatim_cross_key _verbatim_cross_key_f16
  _verbatim_cross_value _verbatim_cross_value_f16
  _verbatim_size_check _verbatim_size_check_patched)
