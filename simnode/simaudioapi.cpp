#include "simaudioapi.h"

#include "http/multipartform.h"
#include "simprotocolfields.h"
#include "textgenerator.h"

#include <algorithm>
#include <cmath>

namespace switchyard::sim {

using namespace fields; // the request-body readers vLLM's other endpoints use too

namespace {

using OJson = nlohmann::ordered_json;

constexpr double BytesPerSecond = 32000.0; // 16 kHz, 16-bit, mono
constexpr int WordsPerSegment = 8;

struct Form
{
    QByteArrayView file;
    std::string model;
    std::string format = "json";
    std::string language = "en";
    std::string prompt;
    bool stream = false;
    bool includeUsage = false;
};

bool formTrue(QByteArrayView v)
{
    const QByteArray t = v.trimmed().toByteArray().toLower();
    return t == "true" || t == "1" || t == "yes" || t == "on";
}

Expected<Form, ApiError> readForm(QByteArrayView contentType, QByteArrayView body, const QStringList &models)
{
    const auto boundary = http::multipartBoundary(contentType);
    if (!boundary)
        return unexpected(badRequest("Expected a multipart/form-data request body."));
    http::MultipartError problem;
    const auto form = http::parseMultipartForm(body, *boundary, &problem);
    if (!form)
        return unexpected(
            badRequest("There was an error parsing the body: " + problem.message.toStdString()));
    auto value = [&](QByteArrayView name) -> std::optional<QByteArrayView> {
        const http::MultipartPart *p = form->part(name);
        if (!p)
            return std::nullopt;
        return body.sliced(p->value.begin, p->value.end - p->value.begin);
    };
    Form f;
    const http::MultipartPart *file = form->part("file");
    if (!file)
        return unexpected(validationError("missing", "file", "Field required"));
    f.file = body.sliced(file->value.begin, file->value.end - file->value.begin);
    if (const auto v = value("response_format"))
        f.format = v->trimmed().toByteArray().toStdString();
    static const std::string formats[] = {"json", "text", "srt", "verbose_json", "vtt"};
    if (std::find(std::begin(formats), std::end(formats), f.format) == std::end(formats))
        return unexpected(validationError("literal_error", "response_format",
                                          "Input should be 'json', 'text', 'srt', 'verbose_json' or 'vtt'"));
    if (const auto v = value("language"))
        f.language = v->trimmed().toByteArray().toStdString();
    if (const auto v = value("prompt"))
        f.prompt = v->toByteArray().toStdString();
    f.stream = value("stream") && formTrue(*value("stream"));
    f.includeUsage = value("stream_include_usage") && formTrue(*value("stream_include_usage"));
    nlohmann::json modelField = nlohmann::json::object();
    if (const auto v = value("model"))
        modelField["model"] = v->trimmed().toByteArray().toStdString();
    auto model = resolveModel(modelField, models);
    if (!model)
        return unexpected(model.error());
    f.model = *model;
    return f;
}

// "00:00:02,500" (srt) or "00:00:02.500" (vtt).
std::string timestamp(double seconds, char separator)
{
    const qint64 ms = qint64(std::llround(seconds * 1000));
    char out[32];
    std::snprintf(out, sizeof out, "%02lld:%02lld:%02lld%c%03lld", ms / 3'600'000, ms / 60'000 % 60,
                  ms / 1000 % 60, separator, ms % 1000);
    return out;
}

struct Segment
{
    double start = 0;
    double end = 0;
    std::string text;
};

// The words "heard" in the upload, grouped into segments spread evenly over its duration.
std::vector<Segment> segmentsOf(const std::vector<std::string> &words, double duration)
{
    std::vector<Segment> out;
    const size_t count = (words.size() + WordsPerSegment - 1) / WordsPerSegment;
    for (size_t s = 0; s < count; ++s) {
        Segment seg;
        seg.start = duration * double(s) / double(count);
        seg.end = duration * double(s + 1) / double(count);
        for (size_t w = s * WordsPerSegment; w < std::min(words.size(), (s + 1) * WordsPerSegment); ++w)
            seg.text += words[w];
        out.push_back(std::move(seg));
    }
    return out;
}

QByteArray subtitles(const std::vector<Segment> &segments, bool vtt)
{
    std::string out = vtt ? "WEBVTT\n\n" : "";
    for (size_t i = 0; i < segments.size(); ++i) {
        const Segment &s = segments[i];
        if (!vtt)
            out += std::to_string(i + 1) + "\n";
        out += timestamp(s.start, vtt ? '.' : ',') + " --> " + timestamp(s.end, vtt ? '.' : ',') + "\n";
        const size_t first = s.text.find_first_not_of(' '); // words after the first come with a space
        out += first == std::string::npos ? std::string() : s.text.substr(first);
        out += "\n\n";
    }
    return QByteArray::fromStdString(out);
}

QList<QByteArray> streamEvents(const Form &f, const std::vector<std::string> &words, const AudioContext &ctx,
                               int promptTokens)
{
    QList<QByteArray> events;
    const std::string id = "trsc-" + ctx.id;
    for (size_t i = 0; i < words.size(); ++i) {
        const bool last = i + 1 == words.size();
        OJson choice{{"delta", {{"content", words[i]}}},
                     {"finish_reason", last ? OJson("stop") : OJson(nullptr)},
                     {"stop_reason", nullptr}};
        events.push_back(sseEvent(toBytes(OJson{{"id", id},
                                                {"object", "transcription.chunk"},
                                                {"created", ctx.created},
                                                {"model", f.model},
                                                {"choices", OJson::array({choice})}})));
    }
    if (f.includeUsage) {
        const int completion = int(words.size());
        events.push_back(sseEvent(toBytes(OJson{{"id", id},
                                                {"object", "transcription.chunk"},
                                                {"created", ctx.created},
                                                {"model", f.model},
                                                {"choices", OJson::array()},
                                                {"usage",
                                                 {{"prompt_tokens", promptTokens},
                                                  {"completion_tokens", completion},
                                                  {"total_tokens", promptTokens + completion}}}})));
    }
    events.push_back(QByteArrayLiteral("data: [DONE]\n\n"));
    return events;
}

} // namespace

bool isAudioPath(QByteArrayView path)
{
    return path == "/v1/audio/transcriptions" || path == "/v1/audio/translations";
}

Expected<AudioAnswer, ApiError> answerAudio(QByteArrayView path, QByteArrayView contentType,
                                            QByteArrayView body, const AudioContext &context)
{
    auto form = readForm(contentType, body, context.models);
    if (!form)
        return unexpected(form.error());
    const Form &f = *form;
    const double duration = std::max(0.5, double(f.file.size()) / BytesPerSecond);
    // About two and a half words a second of speech, within what a client test wants to read.
    const int wordCount = std::clamp(int(duration * 2.5), 3, 400);
    TextGenerator generator(fnv1a64(f.file, quint64(f.file.size())), TextGenerator::Style::Answer);
    std::vector<std::string> words;
    std::string text;
    for (int i = 0; i < wordCount; ++i) {
        words.push_back(generator.next().toStdString());
        text += words.back();
    }
    AudioAnswer a;
    a.promptTokens = 4 + estimateTokens(f.prompt); // the decoder's start-of-transcript prompt
    a.completionTokens = wordCount;
    if (f.stream) {
        a.stream = true;
        a.events = streamEvents(f, words, context, a.promptTokens);
        return a;
    }
    const std::vector<Segment> segments = segmentsOf(words, duration);
    const OJson usage{{"type", "duration"}, {"seconds", int(std::ceil(duration))}};
    a.contentType = "application/json";
    if (f.format == "json") {
        a.body = toBytes(OJson{{"text", text}, {"usage", usage}});
    } else if (f.format == "verbose_json") {
        OJson segs = OJson::array();
        for (size_t i = 0; i < segments.size(); ++i) {
            segs.push_back(OJson{{"id", i},
                                 {"seek", 0},
                                 {"start", segments[i].start},
                                 {"end", segments[i].end},
                                 {"text", segments[i].text},
                                 {"tokens", OJson::array()},
                                 {"temperature", 0.0},
                                 {"avg_logprob", -0.25},
                                 {"compression_ratio", 1.2},
                                 {"no_speech_prob", 0.01}});
        }
        const bool translate = path.endsWith("translations");
        a.body = toBytes(OJson{{"task", translate ? "translate" : "transcribe"},
                               {"language", translate ? "en" : f.language},
                               {"duration", duration},
                               {"text", text},
                               {"segments", segs},
                               {"usage", usage}});
    } else {
        a.contentType = "text/plain; charset=utf-8";
        a.body =
            f.format == "text" ? QByteArray::fromStdString(text) : subtitles(segments, f.format == "vtt");
    }
    return a;
}

} // namespace switchyard::sim
