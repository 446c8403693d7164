#pragma once

// The audio uploads on the simulated node: POST /v1/audio/transcriptions and /v1/audio/translations, a
// multipart/form-data form with the audio in `file`, answered in vLLM's shapes for each response_format —
// json ({"text", "usage"}), verbose_json (with segments), text, srt and vtt (plain text) — and, for
// `stream=true`, vLLM's transcription.chunk events. The node decodes no audio: the words derive from a
// hash of the upload, its length from the upload's size (read as 16 kHz 16-bit mono), so the same upload
// always reads the same. Pure functions: no sockets, no clock.

#include "simprotocol.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QList>
#include <QStringList>
#include <string>

namespace switchyard::sim {

bool isAudioPath(QByteArrayView path);

struct AudioAnswer
{
    bool stream = false;
    QByteArray contentType;   // of a non-stream answer
    QByteArray body;          // a non-stream answer
    QList<QByteArray> events; // a stream's SSE events, [DONE] included
    int promptTokens = 0;
    int completionTokens = 0;
};

struct AudioContext
{
    QStringList models;
    std::string id; // unique part of a stream's chunk id
    qint64 created = 0;
};

// The answer to a POST on an isAudioPath path (contentType: the request's Content-Type header).
Expected<AudioAnswer, ApiError> answerAudio(QByteArrayView path, QByteArrayView contentType,
                                            QByteArrayView body, const AudioContext &context);

} // namespace switchyard::sim
