#pragma once

// multipart/form-data uploads as the OpenAI SDKs send them to /v1/audio/transcriptions and
// /v1/audio/translations, for the tests of audio uploads (tst_audioupload, tst_uploadexchange): fields,
// a file part of audio-like bytes, the closing delimiter, all with one boundary.

#include <QByteArray>

namespace switchyard::testing::uploads {

inline const QByteArray Boundary = "----switchyard-test-7d1";

inline QByteArray field(const QByteArray &name, const QByteArray &value)
{
    return "--" + Boundary + "\r\nContent-Disposition: form-data; name=\"" + name + "\"\r\n\r\n" + value +
           "\r\n";
}

// Audio bytes that hold CRLFs and dashes, as real audio may.
inline QByteArray audio(qsizetype size)
{
    QByteArray a;
    a.reserve(size);
    for (qsizetype i = 0; i < size; ++i)
        a += char("RIFF\r\n--\x00\xff"[i % 10]);
    return a;
}

inline QByteArray filePart(qsizetype audioBytes)
{
    return "--" + Boundary +
           "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"speech.wav\"\r\n"
           "Content-Type: audio/wav\r\n\r\n" +
           audio(audioBytes) + "\r\n";
}

inline QByteArray closing()
{
    return "--" + Boundary + "--\r\n";
}

inline QByteArray contentType()
{
    return "multipart/form-data; boundary=" + Boundary;
}

} // namespace switchyard::testing::uploads
