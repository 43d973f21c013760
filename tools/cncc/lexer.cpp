#include "tools/cncc/lexer.h"

#include <cctype>
#include <cstdlib>

namespace mlusim::cncc {
namespace {

bool ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

class Lexer {
 public:
  explicit Lexer(std::string_view text) : s_(text) { out_.files.push_back("<input>"); }

  Lexed run() {
    bool line_start = true;
    while (i_ < s_.size()) {
      const char c = s_[i_];
      if (c == '\n') {
        ++line_;
        ++i_;
        line_start = true;
      } else if (std::isspace(static_cast<unsigned char>(c))) {
        ++i_;
      } else if (line_start && c == '#') {
        directive();
      } else {
        line_start = false;
        token();
      }
    }
    return std::move(out_);
  }

 private:
  // "# 12 "file.mlu" 1 3": the next line is line 12 of file.mlu; flag 3 marks
  // a system header. Other directives (#pragma) pass through untouched.
  void directive() {
    const size_t begin = i_;
    size_t eol = s_.find('\n', i_);
    if (eol == std::string_view::npos) eol = s_.size();
    const std::string_view d = s_.substr(begin, eol - begin);
    push(Kind::kDirective, begin, eol);
    i_ = eol;
    size_t p = 1;
    while (p < d.size() && d[p] == ' ') ++p;
    if (d.substr(p, 4) == "line") p += 4;
    while (p < d.size() && d[p] == ' ') ++p;
    if (p >= d.size() || !std::isdigit(static_cast<unsigned char>(d[p]))) return;
    const int number = std::atoi(std::string(d.substr(p)).c_str());
    const size_t q1 = d.find('"', p), q2 = q1 == std::string_view::npos ? q1 : d.find('"', q1 + 1);
    if (q2 != std::string_view::npos) {
      file_ = index_of(std::string(d.substr(q1 + 1, q2 - q1 - 1)));
      const std::string_view flags = d.substr(q2 + 1);
      system_ = flags.find(" 3") != std::string_view::npos;
    }
    line_ = number - 1;  // the newline ending this directive advances it
  }

  int index_of(const std::string &file) {
    for (size_t k = 0; k < out_.files.size(); ++k)
      if (out_.files[k] == file) return static_cast<int>(k);
    out_.files.push_back(file);
    return static_cast<int>(out_.files.size() - 1);
  }

  void token() {
    const size_t begin = i_;
    const char c = s_[i_];
    if (ident_start(c)) {
      while (i_ < s_.size() && ident_char(s_[i_])) ++i_;
      const std::string_view word = s_.substr(begin, i_ - begin);
      if (i_ < s_.size() && (s_[i_] == '"' || s_[i_] == '\'') && is_literal_prefix(word)) {
        if (word.back() == 'R' && s_[i_] == '"') raw_string();
        else quoted(s_[i_]);
        push(Kind::kLiteral, begin, i_);
        return;
      }
      push(Kind::kIdent, begin, i_);
    } else if (std::isdigit(static_cast<unsigned char>(c)) ||
               (c == '.' && i_ + 1 < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_ + 1])))) {
      number();
      push(Kind::kNumber, begin, i_);
    } else if (c == '"' || c == '\'') {
      quoted(c);
      push(Kind::kLiteral, begin, i_);
    } else {
      const std::string_view two = s_.substr(i_, 2);
      i_ += (two == "::" || two == "->") ? 2 : 1;
      push(Kind::kPunct, begin, i_);
    }
  }

  static bool is_literal_prefix(std::string_view w) {
    return w == "L" || w == "u" || w == "U" || w == "u8" || w == "R" || w == "LR" || w == "uR" ||
           w == "UR" || w == "u8R";
  }

  void number() {  // a pp-number: digits, letters, dots, digit separators, exponent signs
    while (i_ < s_.size()) {
      const char c = s_[i_];
      if ((c == '+' || c == '-') && (s_[i_ - 1] == 'e' || s_[i_ - 1] == 'E' ||
                                     s_[i_ - 1] == 'p' || s_[i_ - 1] == 'P')) {
        ++i_;
      } else if (ident_char(c) || c == '.' || c == '\'') {
        ++i_;
      } else {
        break;
      }
    }
  }

  void quoted(char quote) {
    ++i_;
    while (i_ < s_.size() && s_[i_] != quote) {
      if (s_[i_] == '\\') ++i_;
      else if (s_[i_] == '\n') ++line_;
      ++i_;
    }
    ++i_;
  }

  void raw_string() {  // R"delim( ... )delim"
    const size_t open = s_.find('(', i_);
    const std::string close = ")" + std::string(s_.substr(i_ + 1, open - i_ - 1)) + "\"";
    const size_t end = s_.find(close, open);
    const size_t stop = end == std::string_view::npos ? s_.size() : end + close.size();
    for (size_t k = i_; k < stop; ++k)
      if (s_[k] == '\n') ++line_;
    i_ = stop;
  }

  void push(Kind kind, size_t begin, size_t end) {
    out_.tokens.push_back(Token{kind, begin, end, line_, file_, system_});
  }

  std::string_view s_;
  size_t i_ = 0;
  int line_ = 1, file_ = 0;
  bool system_ = false;
  Lexed out_;
};

}  // namespace

Lexed lex(std::string_view text) { return Lexer(text).run(); }

}  // namespace mlusim::cncc
