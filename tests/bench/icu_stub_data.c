/* An empty ICU common-data item, as ICU's own "stubdata" library provides, for the bundle gpu_carry.sh packs: it
   replaces ICU's 30 MB of locale data, which flowscope's command line and tst_vulkan never read, so that the bundle
   fits the lent GPU machine's transfer limit. ICU_DATA_SYMBOL is the data symbol of the ICU version linked
   (icudt72_dat). */
#include <unicode/udata.h>

typedef struct {
  uint16_t headerSize;
  uint8_t magic1, magic2;
  UDataInfo info;
  char padding[8];
  uint32_t count, reserved; /* no items in the table of contents */
  const void* toc[4];
} StubHeader;

__attribute__((visibility("default"))) const StubHeader ICU_DATA_SYMBOL = {
    .headerSize = 32,
    .magic1 = 0xda,
    .magic2 = 0x27,
    .info = {.size = sizeof(UDataInfo),
             .isBigEndian = U_IS_BIG_ENDIAN,
             .charsetFamily = U_CHARSET_FAMILY,
             .sizeofUChar = sizeof(UChar),
             .dataFormat = {0x43, 0x6d, 0x6e, 0x44}, /* "CmnD": ICU's common data */
             .formatVersion = {1, 0, 0, 0}},
};
