// Runs a fuzz target's LLVMFuzzerTestOneInput over files and folders given on the command line, without
// libFuzzer: the normal test suite (and its sanitizer builds) replays the seed corpora and every input a
// fuzzer once crashed on (tests/fuzz/regressions/), so a fixed finding stays fixed.

#include <QDirIterator>
#include <QFile>
#include <QStringList>
#include <cstdint>
#include <cstdio>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size);

int main(int argc, char **argv)
{
    QStringList files;
    for (int i = 1; i < argc; ++i) {
        const QString arg = QString::fromLocal8Bit(argv[i]);
        QDirIterator it(arg, QDir::Files, QDirIterator::Subdirectories);
        if (!it.hasNext() && QFile::exists(arg))
            files.append(arg);
        while (it.hasNext())
            files.append(it.next());
    }
    if (files.isEmpty()) {
        std::fprintf(stderr, "no inputs found\n");
        return 1;
    }
    files.sort();
    for (const QString &f : std::as_const(files)) {
        QFile file(f);
        if (!file.open(QIODevice::ReadOnly)) {
            std::fprintf(stderr, "cannot read %s\n", qPrintable(f));
            return 1;
        }
        const QByteArray data = file.readAll();
        std::fprintf(stderr, "replay %s (%lld bytes)\n", qPrintable(f), static_cast<long long>(data.size()));
        LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t *>(data.constData()),
                               std::size_t(data.size()));
    }
    std::fprintf(stderr, "%lld inputs replayed, all passed\n", static_cast<long long>(files.size()));
    return 0;
}
