//! Node-API addon over whisper.cpp (through `whisper-rs`). It exposes one model class whose
//! `transcribe` call is synchronous: the TypeScript side runs it inside a worker thread, never on
//! the event loop. Results carry segments, words (tokens grouped at word boundaries, so that
//! multi-byte characters split across tokens are decoded whole), timings and probabilities.
#![deny(clippy::all)]

use napi::bindgen_prelude::{Float32Array, Int32Array};
use napi::{Error, Result, Status};
use napi_derive::napi;
use std::ffi::{c_char, c_void, CStr};
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::Once;
use whisper_rs::{
    FullParams, SamplingStrategy, WhisperContext, WhisperContextParameters, WhisperState,
};

static SILENCE_LOGS: Once = Once::new();
static TUNE_ALLOCATOR: Once = Once::new();

/// Every window gets a fresh whisper.cpp state: tens of MiB of buffers allocated and freed per
/// call. glibc raises its mmap threshold after such frees, so later buffers come from the heap
/// arenas, which fragment and never shrink: the process grew with the length of a recording.
/// A fixed threshold keeps large buffers in mmap, returned to the system when freed.
fn tune_allocator() {
    TUNE_ALLOCATOR.call_once(|| {
        #[cfg(all(target_os = "linux", target_env = "gnu"))]
        unsafe {
            libc::mallopt(libc::M_MMAP_THRESHOLD, 128 * 1024);
        }
    });
}

unsafe extern "C" fn discard_log(_level: u32, _text: *const c_char, _user_data: *mut c_void) {}

/// whisper.cpp and ggml print every load and timing detail to stderr; the server logs what
/// matters itself, so the native logs are silenced unless VERBATIM_WHISPER_LOG is set.
fn silence_native_logs() {
    SILENCE_LOGS.call_once(|| {
        if std::env::var_os("VERBATIM_WHISPER_LOG").is_none() {
            unsafe {
                whisper_rs::whisper_rs_sys::whisper_log_set(Some(discard_log), std::ptr::null_mut());
                whisper_rs::whisper_rs_sys::ggml_log_set(Some(discard_log), std::ptr::null_mut());
            }
        }
    });
}

unsafe extern "C" fn abort_requested(user_data: *mut c_void) -> bool {
    (*(user_data as *const AtomicI32)).load(Ordering::Relaxed) != 0
}

fn failure(message: impl Into<String>) -> Error {
    Error::new(Status::GenericFailure, message.into())
}

#[napi(object)]
pub struct ModelInfo {
    pub multilingual: bool,
    pub vocabulary_size: i32,
    pub audio_context: i32,
    pub text_context: i32,
    pub mel_bins: i32,
    pub model_type: String,
}

#[napi(object)]
pub struct LanguageEntry {
    pub id: i32,
    pub code: String,
    pub name: String,
}

#[napi(object)]
#[derive(Default)]
pub struct TranscribeOptions {
    /// ISO 639-1 code, or "auto" / absent to detect.
    pub language: Option<String>,
    pub threads: Option<i32>,
    pub prompt: Option<String>,
    /// Text the decoder continues from (OpenAI Whisper's `prefix`): the words already final of the
    /// audio the window begins with, as a segment from 0 s to `prefix_end` (seconds), so that the
    /// decoder places what follows after it.
    pub prefix: Option<String>,
    pub prefix_end: Option<f64>,
    /// Encoder context in frames (50 per second of audio); 0 or absent = the model's full 1500.
    pub audio_context: Option<i32>,
    pub temperature: Option<f64>,
    /// Step of whisper.cpp's own temperature fallback (0 disables it).
    pub temperature_increment: Option<f64>,
    /// Beam width; absent or 1 = greedy.
    pub beam_size: Option<i32>,
    pub best_of: Option<i32>,
    pub suppress_non_speech: Option<bool>,
    pub no_speech_threshold: Option<f64>,
    pub entropy_threshold: Option<f64>,
    pub logprob_threshold: Option<f64>,
    pub single_segment: Option<bool>,
    pub max_tokens_per_segment: Option<i32>,
}

#[napi(object)]
pub struct RecognisedWord {
    pub text: String,
    /// Milliseconds from the start of the given samples.
    pub start: f64,
    pub end: f64,
    /// Mean probability of the word's tokens.
    pub probability: f64,
}

#[napi(object)]
pub struct RecognisedSegment {
    pub start: f64,
    pub end: f64,
    pub text: String,
    pub no_speech_probability: f64,
    /// Mean log-probability of the segment's text tokens (Whisper's "avg_logprob").
    pub average_log_probability: f64,
    pub words: Vec<RecognisedWord>,
}

#[napi(object)]
pub struct RecognitionResult {
    pub language: String,
    pub segments: Vec<RecognisedSegment>,
    pub aborted: bool,
}

#[napi]
pub struct WhisperModel {
    context: WhisperContext,
}

#[napi]
impl WhisperModel {
    /// Loads a ggml model file. The caller validates the file's header first: a corrupt file is
    /// refused here with an error, but the header check gives the user the reason.
    #[napi(constructor)]
    pub fn new(path: String) -> Result<Self> {
        silence_native_logs();
        tune_allocator();
        let mut params = WhisperContextParameters::default();
        params.use_gpu(false);
        params.flash_attn(false);
        let context = WhisperContext::new_with_params(&path, params)
            .map_err(|error| failure(format!("cannot load the model {path}: {error}")))?;
        Ok(Self { context })
    }

    #[napi]
    pub fn info(&self) -> ModelInfo {
        ModelInfo {
            multilingual: self.context.is_multilingual(),
            vocabulary_size: self.context.model_n_vocab(),
            audio_context: self.context.model_n_audio_ctx(),
            text_context: self.context.model_n_text_ctx(),
            mel_bins: self.context.model_n_mels(),
            model_type: self
                .context
                .model_type_readable_str_lossy()
                .map(|name| name.into_owned())
                .unwrap_or_default(),
        }
    }

    /// Recognises 16 kHz mono samples. `abort_flag` (an Int32Array over a SharedArrayBuffer) lets
    /// another thread stop the work: whisper.cpp polls it between steps, and the call returns
    /// with `aborted: true`.
    #[napi]
    pub fn transcribe(
        &mut self,
        samples: Float32Array,
        options: Option<TranscribeOptions>,
        abort_flag: Option<Int32Array>,
    ) -> Result<RecognitionResult> {
        let options = options.unwrap_or_default();
        if samples.is_empty() {
            return Err(failure("no samples to recognise"));
        }
        // A fresh decoder state per call: a reused one carries the previous window's cross-attention
        // cache past a shorter encoder context, so the same audio came out differently depending on
        // what was decoded before it (measured on the dev set; creating one costs no measurable time).
        let mut state = self
            .context
            .create_state()
            .map_err(|error| failure(format!("cannot create the decoder state: {error}")))?;

        let beam_size = options.beam_size.unwrap_or(1).max(1);
        let strategy = if beam_size > 1 {
            SamplingStrategy::BeamSearch { beam_size, patience: -1.0 }
        } else {
            SamplingStrategy::Greedy { best_of: options.best_of.unwrap_or(1).max(1) }
        };
        let mut params = FullParams::new(strategy);
        let language = options.language.clone().unwrap_or_else(|| "auto".to_string());
        params.set_language(Some(language.as_str()));
        params.set_n_threads(options.threads.unwrap_or(2).max(1));
        params.set_translate(false);
        params.set_no_context(true);
        params.set_print_special(false);
        params.set_print_progress(false);
        params.set_print_realtime(false);
        params.set_print_timestamps(false);
        params.set_token_timestamps(true);
        params.set_suppress_blank(true);
        params.set_suppress_nst(options.suppress_non_speech.unwrap_or(true));
        params.set_temperature(options.temperature.unwrap_or(0.0) as f32);
        params.set_temperature_inc(options.temperature_increment.unwrap_or(0.2) as f32);
        params.set_entropy_thold(options.entropy_threshold.unwrap_or(2.4) as f32);
        params.set_logprob_thold(options.logprob_threshold.unwrap_or(-1.0) as f32);
        params.set_no_speech_thold(options.no_speech_threshold.unwrap_or(0.6) as f32);
        params.set_single_segment(options.single_segment.unwrap_or(false));
        if let Some(max_tokens) = options.max_tokens_per_segment {
            params.set_max_tokens(max_tokens.max(0));
        }
        if let Some(audio_context) = options.audio_context {
            if audio_context > 0 {
                params.set_audio_ctx(audio_context.min(self.context.model_n_audio_ctx()));
            }
        }
        let prompt = options.prompt.clone().unwrap_or_default();
        if !prompt.is_empty() {
            params.set_initial_prompt(&prompt);
        }
        if let Some(flag) = abort_flag.as_ref() {
            if flag.len() > 0 {
                // whisper-rs's closure-based abort callback casts its boxed closure to the wrong
                // type (0.15.1), so the plain C callback is used with the flag's address as its
                // user data. The typed array outlives this synchronous call.
                unsafe {
                    params.set_abort_callback(Some(abort_requested));
                    params.set_abort_callback_user_data(flag.as_ptr() as *mut c_void);
                }
            }
        }

        if language == "auto" {
            if let Some(audio_context) = options.audio_context.filter(|frames| *frames > 0) {
                prime_audio_context(&mut state, audio_context, options.threads.unwrap_or(2).max(1));
            }
        }
        let mut prefix_tokens: Vec<i32> = Vec::new();
        if let Some(prefix) = options.prefix.as_ref().filter(|text| !text.is_empty()) {
            // Timestamps as Whisper writes a segment (<|0.00|> text <|end|>): without them the
            // decoder placed the words after the prefix seconds away from where they are said.
            let timestamp =
                |seconds: f64| self.context.token_beg() + (seconds / 0.02).round().clamp(0.0, 1500.0) as i32;
            prefix_tokens.push(timestamp(0.0));
            prefix_tokens.extend(
                self.context
                    .tokenize(prefix, 1024)
                    .map_err(|error| failure(format!("cannot tokenize the prefix: {error}")))?,
            );
            if let Some(end) = options.prefix_end {
                prefix_tokens.push(timestamp(end));
            }
        }
        unsafe { verbatim_set_decoder_prefix(prefix_tokens.as_ptr(), prefix_tokens.len() as i32) };
        let outcome = state.full(params, &samples);
        unsafe { verbatim_set_decoder_prefix(std::ptr::null(), 0) };
        let aborted = abort_flag
            .as_ref()
            .map(|flag| flag.len() > 0 && unsafe { (*(flag.as_ptr() as *const AtomicI32)).load(Ordering::Relaxed) } != 0)
            .unwrap_or(false);
        if aborted {
            return Ok(RecognitionResult { language, segments: Vec::new(), aborted: true });
        }
        outcome.map_err(|error| failure(format!("recognition failed: {error}")))?;

        let language_id = state.full_lang_id_from_state();
        let detected = whisper_rs::get_lang_str(language_id).unwrap_or("").to_string();
        let end_of_text = self.context.token_eot();
        let segments = collect_segments(&state, end_of_text);
        Ok(RecognitionResult {
            language: if detected.is_empty() { language } else { detected },
            segments,
            aborted: false,
        })
    }
}

extern "C" {
    fn verbatim_set_decoder_prefix(tokens: *const i32, n: i32);
}

/// whisper.cpp detects the language before it applies `audio_ctx`, with whatever encoder context the
/// state's previous run left (the full 30 s on a fresh state): detecting on a 5 s window would cost
/// a 30 s encode. A run on 110 ms of silence records the context and stops before encoding
/// anything (whisper.cpp 1.7: 10 mel frames pass its "too short" check and end its main loop at
/// once), so detection then encodes only the window's own frames.
fn prime_audio_context(state: &mut WhisperState, audio_context: i32, threads: i32) {
    const PRIMING_SAMPLES: usize = 1_780;
    let silence = vec![0.0f32; PRIMING_SAMPLES];
    let mut params = FullParams::new(SamplingStrategy::Greedy { best_of: 1 });
    params.set_language(Some("en"));
    params.set_n_threads(threads);
    params.set_audio_ctx(audio_context);
    params.set_print_progress(false);
    params.set_print_realtime(false);
    params.set_print_special(false);
    params.set_print_timestamps(false);
    let _ = state.full(params, &silence);
}

struct WordInProgress {
    bytes: Vec<u8>,
    start: f64,
    end: f64,
    probability_sum: f64,
    tokens: u32,
}

impl WordInProgress {
    fn finish(self) -> Option<RecognisedWord> {
        let text = String::from_utf8_lossy(&self.bytes).trim().to_string();
        if text.is_empty() {
            return None;
        }
        Some(RecognisedWord {
            text,
            start: self.start,
            end: self.end.max(self.start),
            probability: self.probability_sum / f64::from(self.tokens.max(1)),
        })
    }
}

fn collect_segments(state: &WhisperState, end_of_text: i32) -> Vec<RecognisedSegment> {
    let mut segments = Vec::new();
    for segment in state.as_iter() {
        let text = segment.to_str_lossy().map(|text| text.into_owned()).unwrap_or_default();
        let mut words: Vec<RecognisedWord> = Vec::new();
        let mut current: Option<WordInProgress> = None;
        let mut log_probability_sum = 0.0f64;
        let mut text_tokens = 0u32;
        for index in 0..segment.n_tokens() {
            let Some(token) = segment.get_token(index) else { continue };
            let data = token.token_data();
            // Special tokens (timestamps, language, task, end of text) carry no text.
            if data.id >= end_of_text {
                continue;
            }
            let bytes = token.to_bytes().unwrap_or(&[]).to_vec();
            if bytes.is_empty() {
                continue;
            }
            log_probability_sum += f64::from(data.plog);
            text_tokens += 1;
            let start = (data.t0 as f64) * 10.0;
            let end = (data.t1 as f64) * 10.0;
            let probability = f64::from(data.p);
            let starts_word = bytes.first() == Some(&b' ') || current.is_none();
            if starts_word {
                if let Some(word) = current.take().and_then(WordInProgress::finish) {
                    words.push(word);
                }
                current = Some(WordInProgress { bytes, start, end, probability_sum: probability, tokens: 1 });
            } else if let Some(word) = current.as_mut() {
                word.bytes.extend_from_slice(&bytes);
                word.end = end;
                word.probability_sum += probability;
                word.tokens += 1;
            }
        }
        if let Some(word) = current.take().and_then(WordInProgress::finish) {
            words.push(word);
        }
        segments.push(RecognisedSegment {
            start: (segment.start_timestamp() as f64) * 10.0,
            end: (segment.end_timestamp() as f64) * 10.0,
            text,
            no_speech_probability: f64::from(segment.no_speech_probability()),
            average_log_probability: if text_tokens > 0 {
                log_probability_sum / f64::from(text_tokens)
            } else {
                0.0
            },
            words,
        });
    }
    segments
}

/// Every language whisper.cpp knows, in its own id order.
#[napi]
pub fn languages() -> Vec<LanguageEntry> {
    let mut entries = Vec::new();
    for id in 0..=whisper_rs::get_lang_max_id() {
        let code = whisper_rs::get_lang_str(id).unwrap_or("").to_string();
        let name = unsafe {
            let pointer = whisper_rs::whisper_rs_sys::whisper_lang_str_full(id);
            if pointer.is_null() {
                String::new()
            } else {
                CStr::from_ptr(pointer).to_string_lossy().into_owned()
            }
        };
        if !code.is_empty() {
            entries.push(LanguageEntry { id, code, name });
        }
    }
    entries
}

/// The CPU features whisper.cpp was built with (AVX2, FMA, …), for the start-up log.
#[napi]
pub fn system_info() -> String {
    unsafe {
        let pointer = whisper_rs::whisper_rs_sys::whisper_print_system_info();
        if pointer.is_null() {
            String::new()
        } else {
            CStr::from_ptr(pointer).to_string_lossy().into_owned()
        }
    }
}
