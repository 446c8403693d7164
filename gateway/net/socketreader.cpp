#include "socketreader.h"

#include <algorithm>

namespace switchyard::net {

ReadOutcome readAvailable(QAbstractSocket *socket, QByteArray &in, qint64 room)
{
    ReadOutcome out;
    if (!isUnbuffered(socket)) {
        const QByteArray got = socket->readAll();
        out.bytes = got.size();
        in.append(got);
        return out;
    }
    // One chunk on the stack, then appended: the buffer holds exactly what came, and a connection that
    // waits (most of them, most of the time) keeps no spare capacity.
    char chunk[16 * 1024];
    while (room > 0) {
        const qint64 want = std::min<qint64>(sizeof chunk, room);
        const qint64 n = socket->read(chunk, want);
        if (n < 0) {
            out.closed = true;
            break;
        }
        if (n == 0)
            break; // nothing waiting (EAGAIN)
        in.append(chunk, n);
        out.bytes += n;
        room -= n;
        if (n < want)
            break; // drained: the next read would only say EAGAIN
    }
    return out;
}

} // namespace switchyard::net
