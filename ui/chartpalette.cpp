#include "chartpalette.h"

#include <iterator>

namespace switchyard::ui {

QColor seriesColor(int index)
{
    static const QColor Palette[] = {QColor(0x1f, 0x77, 0xb4), QColor(0xff, 0x7f, 0x0e),
                                     QColor(0x2c, 0xa0, 0x2c), QColor(0x94, 0x67, 0xbd),
                                     QColor(0x8c, 0x56, 0x4b), QColor(0xe3, 0x77, 0xc2),
                                     QColor(0x17, 0xbe, 0xcf), QColor(0xbc, 0xbd, 0x22)};
    return Palette[size_t(index) % std::size(Palette)];
}

} // namespace switchyard::ui
