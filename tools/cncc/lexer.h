// Tokens of a preprocessed C++ translation unit, each tagged with the source
// file and line it came from (GNU linemarkers) and whether that file is a
// system header. Enough C++ lexing for the .mlu translation, nothing more.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace mlusim::cncc {

enum class Kind { kIdent, kNumber, kLiteral, kPunct, kDirective };

struct Token {
  Kind kind;
  size_t begin, end;  // byte range in the text
  int line;           // line in its source file
  int file;           // index into Lexed::files
  bool system;        // from a system header
};

struct Lexed {
  std::vector<Token> tokens;
  std::vector<std::string> files;
};

Lexed lex(std::string_view text);

}  // namespace mlusim::cncc
