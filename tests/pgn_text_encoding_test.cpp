// UTF-8 validation and the Windows-1252 / DOS code page guess of text_encoding.h.
#include <gtest/gtest.h>

#include <string>

#include "import/text_encoding.h"

namespace import {
namespace {

std::string utf8(std::string_view in) {
  std::string out = "stale";
  to_utf8(in, out);
  return out;
}

TEST(PgnTextEncoding, ValidUtf8IsRecognised) {
  EXPECT_TRUE(is_valid_utf8(""));
  EXPECT_TRUE(is_valid_utf8("plain ASCII text, longer than eight bytes"));
  EXPECT_TRUE(is_valid_utf8("M\xC3\xBCller"));              // ü
  EXPECT_TRUE(is_valid_utf8("\xE2\x80\x93 \xE2\x99\x94"));  // – ♔
  EXPECT_TRUE(is_valid_utf8("\xF0\x9F\x98\x80"));           // U+1F600
  EXPECT_TRUE(is_valid_utf8("\xF4\x8F\xBF\xBF"));           // U+10FFFF
}

TEST(PgnTextEncoding, MalformedUtf8IsRejected) {
  EXPECT_FALSE(is_valid_utf8("M\xFCller"));         // Latin-1 ü
  EXPECT_FALSE(is_valid_utf8("\xC0\x80"));          // overlong NUL
  EXPECT_FALSE(is_valid_utf8("\xE0\x80\xAF"));      // overlong '/'
  EXPECT_FALSE(is_valid_utf8("\xED\xA0\x80"));      // surrogate U+D800
  EXPECT_FALSE(is_valid_utf8("\xF4\x90\x80\x80"));  // above U+10FFFF
  EXPECT_FALSE(is_valid_utf8("\xF5\x80\x80\x80"));
  EXPECT_FALSE(is_valid_utf8("abc\xE2\x80"));  // truncated sequence
  EXPECT_FALSE(is_valid_utf8("\x80"));         // lone continuation byte
}

TEST(PgnTextEncoding, HasNonAscii) {
  EXPECT_FALSE(has_non_ascii("Kasparov, Garry (RUS) 2851"));
  EXPECT_TRUE(has_non_ascii("Kasparov, Garry (RUS) 2851 \xE9"));
}

TEST(PgnTextEncoding, ValidUtf8IsKept) {
  EXPECT_EQ(utf8("Caruana"), "Caruana");
  EXPECT_EQ(utf8("J\xC3\xA1n \xE2\x99\x94"), "J\xC3\xA1n \xE2\x99\x94");
}

TEST(PgnTextEncoding, Latin1LettersAreDecodedAsWindows1252) {
  EXPECT_EQ(guess_legacy_encoding("M\xFCller"), LegacyEncoding::kWindows1252);
  EXPECT_EQ(utf8("M\xFCller, J\xFCrgen"), "M\xC3\xBCller, J\xC3\xBCrgen");
  EXPECT_EQ(utf8("Gy\xF6rgy"), "Gy\xC3\xB6rgy");
  EXPECT_EQ(utf8("W\xE4lbers"), "W\xC3\xA4lbers");
}

TEST(PgnTextEncoding, Windows1252PunctuationIsDecoded) {
  EXPECT_EQ(utf8("\x93quoted\x94"), "\xE2\x80\x9Cquoted\xE2\x80\x9D");  // “quoted”
  EXPECT_EQ(utf8("10 \x80"), "10 \xE2\x82\xAC");                        // €
  EXPECT_EQ(utf8("1 \x96 0"), "1 \xE2\x80\x93 0");                      // –
}

TEST(PgnTextEncoding, DosLettersInsideWordsAreDecodedAsCp437) {
  EXPECT_EQ(guess_legacy_encoding("M\x81ller"), LegacyEncoding::kDos);
  EXPECT_EQ(utf8("M\x81ller"), "M\xC3\xBCller");                              // ü
  EXPECT_EQ(utf8("Quadros,Andr\x82"), "Quadros,Andr\xC3\xA9");                // é
  EXPECT_EQ(utf8("G\x94teborg \x99rebro"), "G\xC3\xB6teborg \xC3\x96rebro");  // ö Ö
  EXPECT_EQ(utf8("Espa\xA4ol, L\xA2pez, S\xA0nchez"),
            "Espa\xC3\xB1ol, L\xC3\xB3pez, S\xC3\xA1nchez");  // ñ ó á
  EXPECT_EQ(utf8("\x9A"
                 "ber"),
            "\xC3\x9C"
            "ber");  // Ü
}

TEST(PgnTextEncoding, TrailingA0IsANoBreakSpaceNotADosLetter) {
  EXPECT_EQ(guess_legacy_encoding("Bidjukov\xA0"), LegacyEncoding::kWindows1252);
  EXPECT_EQ(utf8("Bidjukov\xA0"), "Bidjukov\xC2\xA0");
}

TEST(PgnTextEncoding, AnyByteFromA6UpMeansWindows1252) {
  EXPECT_EQ(guess_legacy_encoding("M\x81ller \xE9t\xE9"), LegacyEncoding::kWindows1252);
}

TEST(PgnTextEncoding, ValidSequencesSurviveNextToStrayBytes) {
  // A UTF-8 "á" followed by a Latin-1 "ü": each is read in its own encoding.
  EXPECT_EQ(utf8("J\xC3\xA1n M\xFCller"), "J\xC3\xA1n M\xC3\xBCller");
}

TEST(PgnTextEncoding, OutputIsAlwaysValidUtf8) {
  std::string all;
  for (int b = 0; b < 256; ++b) all.push_back(char(b));
  EXPECT_TRUE(is_valid_utf8(utf8(all)));
  EXPECT_TRUE(is_valid_utf8(utf8(all.substr(0x80, 0x26))));  // the DOS branch
}

}  // namespace
}  // namespace import
