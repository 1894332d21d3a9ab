#include "ocelot/JsonValue.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace ocelot {

JsonValue JsonValue::fromBool(bool value) {
  JsonValue v;
  v.value_ = value;
  return v;
}

JsonValue JsonValue::fromNumber(double value, std::optional<uint64_t> exactUnsigned) {
  JsonValue v;
  v.value_ = Number{value, exactUnsigned};
  return v;
}

JsonValue JsonValue::fromString(std::string value) {
  JsonValue v;
  v.value_ = std::move(value);
  return v;
}

JsonValue JsonValue::fromArray(Array value) {
  JsonValue v;
  v.value_ = std::make_shared<Array>(std::move(value));
  return v;
}

JsonValue JsonValue::fromObject(Object value) {
  JsonValue v;
  v.value_ = std::make_shared<Object>(std::move(value));
  return v;
}

bool JsonValue::asBool(bool fallback) const {
  const bool* b = std::get_if<bool>(&value_);
  return b != nullptr ? *b : fallback;
}

double JsonValue::asDouble(double fallback) const {
  const Number* n = std::get_if<Number>(&value_);
  return n != nullptr ? n->value : fallback;
}

uint64_t JsonValue::asUnsigned(uint64_t fallback) const {
  const Number* n = std::get_if<Number>(&value_);
  if (n == nullptr)
    return fallback;
  if (n->exactUnsigned)
    return *n->exactUnsigned;
  if (n->value <= 0 || !std::isfinite(n->value))
    return 0;
  return n->value >= 18446744073709551615.0 ? UINT64_MAX : static_cast<uint64_t>(n->value);
}

int64_t JsonValue::asInteger(int64_t fallback) const {
  const Number* n = std::get_if<Number>(&value_);
  if (n == nullptr)
    return fallback;
  if (n->exactUnsigned && *n->exactUnsigned <= static_cast<uint64_t>(INT64_MAX))
    return static_cast<int64_t>(*n->exactUnsigned);
  if (!std::isfinite(n->value))
    return fallback;
  if (n->value >= 9.2e18)
    return INT64_MAX;
  if (n->value <= -9.2e18)
    return INT64_MIN;
  return static_cast<int64_t>(n->value);
}

const std::string& JsonValue::asString() const {
  static const std::string empty;
  const std::string* s = std::get_if<std::string>(&value_);
  return s != nullptr ? *s : empty;
}

const JsonValue::Array& JsonValue::asArray() const {
  static const Array empty;
  const auto* a = std::get_if<std::shared_ptr<Array>>(&value_);
  return a != nullptr ? **a : empty;
}

const JsonValue::Object& JsonValue::asObject() const {
  static const Object empty;
  const auto* o = std::get_if<std::shared_ptr<Object>>(&value_);
  return o != nullptr ? **o : empty;
}

const JsonValue& JsonValue::operator[](std::string_view name) const {
  static const JsonValue null;
  const Object& object = asObject();
  auto it = object.find(name);
  return it != object.end() ? it->second : null;
}

bool JsonValue::has(std::string_view name) const {
  return asObject().find(name) != asObject().end();
}

namespace {

constexpr int kMaxDepth = 256;

class Parser {
public:
  explicit Parser(std::string_view text) : text_(text) {}

  JsonParseResult parse() {
    JsonParseResult result;
    skipSpace();
    std::optional<JsonValue> value = parseValue(0);
    if (value) {
      skipSpace();
      if (pos_ != text_.size())
        fail("unexpected text after the value");
    }
    if (!error_.empty()) {
      result.error = "offset " + std::to_string(errorAt_) + ": " + error_;
      return result;
    }
    result.value = std::move(value);
    return result;
  }

private:
  std::optional<JsonValue> fail(std::string message) {
    if (error_.empty()) {
      error_ = std::move(message);
      errorAt_ = pos_;
    }
    return std::nullopt;
  }

  void skipSpace() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' ||
                                   text_[pos_] == '\n' || text_[pos_] == '\r'))
      ++pos_;
  }

  bool consume(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word)
      return false;
    pos_ += word.size();
    return true;
  }

  std::optional<JsonValue> parseValue(int depth) {
    if (depth > kMaxDepth)
      return fail("nesting too deep");
    if (pos_ >= text_.size())
      return fail("unexpected end of input");
    char c = text_[pos_];
    if (c == '{')
      return parseObject(depth);
    if (c == '[')
      return parseArray(depth);
    if (c == '"') {
      auto s = parseString();
      if (!s)
        return std::nullopt;
      return JsonValue::fromString(std::move(*s));
    }
    if (consume("true"))
      return JsonValue::fromBool(true);
    if (consume("false"))
      return JsonValue::fromBool(false);
    if (consume("null"))
      return JsonValue();
    if (c == '-' || (c >= '0' && c <= '9'))
      return parseNumber();
    return fail(std::string("unexpected character '") + c + "'");
  }

  std::optional<JsonValue> parseNumber() {
    size_t start = pos_;
    bool negative = false, integral = true;
    if (text_[pos_] == '-') {
      negative = true;
      ++pos_;
    }
    auto digits = [&] {
      size_t first = pos_;
      while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9')
        ++pos_;
      return pos_ > first;
    };
    if (!digits())
      return fail("expected digits");
    if (pos_ < text_.size() && text_[pos_] == '.') {
      integral = false;
      ++pos_;
      if (!digits())
        return fail("expected digits after '.'");
    }
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      integral = false;
      ++pos_;
      if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-'))
        ++pos_;
      if (!digits())
        return fail("expected digits in the exponent");
    }
    std::string spelling(text_.substr(start, pos_ - start));
    double value = std::strtod(spelling.c_str(), nullptr);
    std::optional<uint64_t> exact;
    if (integral && !negative) {
      errno = 0;
      unsigned long long parsed = std::strtoull(spelling.c_str(), nullptr, 10);
      if (errno == 0)
        exact = parsed;
    }
    return JsonValue::fromNumber(value, exact);
  }

  static void appendUtf8(std::string& out, uint32_t code) {
    if (code < 0x80) {
      out += static_cast<char>(code);
    } else if (code < 0x800) {
      out += static_cast<char>(0xC0 | (code >> 6));
      out += static_cast<char>(0x80 | (code & 0x3F));
    } else if (code < 0x10000) {
      out += static_cast<char>(0xE0 | (code >> 12));
      out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (code & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (code >> 18));
      out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (code & 0x3F));
    }
  }

  std::optional<uint32_t> parseHex4() {
    if (pos_ + 4 > text_.size()) {
      fail("truncated \\u escape");
      return std::nullopt;
    }
    uint32_t code = 0;
    for (int i = 0; i < 4; ++i) {
      char h = text_[pos_++];
      code <<= 4;
      if (h >= '0' && h <= '9')
        code |= static_cast<uint32_t>(h - '0');
      else if (h >= 'a' && h <= 'f')
        code |= static_cast<uint32_t>(h - 'a' + 10);
      else if (h >= 'A' && h <= 'F')
        code |= static_cast<uint32_t>(h - 'A' + 10);
      else {
        fail("bad hex digit in \\u escape");
        return std::nullopt;
      }
    }
    return code;
  }

  std::optional<std::string> parseString() {
    ++pos_; // opening quote
    std::string out;
    while (pos_ < text_.size()) {
      char c = text_[pos_++];
      if (c == '"')
        return out;
      if (static_cast<unsigned char>(c) < 0x20) {
        fail("control character in a string");
        return std::nullopt;
      }
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ >= text_.size())
        break;
      char e = text_[pos_++];
      switch (e) {
      case '"':
      case '\\':
      case '/':
        out += e;
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'u': {
        auto code = parseHex4();
        if (!code)
          return std::nullopt;
        if (*code >= 0xD800 && *code < 0xDC00 && consume("\\u")) {
          auto low = parseHex4();
          if (!low)
            return std::nullopt;
          *code = 0x10000 + ((*code - 0xD800) << 10) + (*low - 0xDC00);
        }
        appendUtf8(out, *code);
        break;
      }
      default:
        fail(std::string("bad escape '\\") + e + "'");
        return std::nullopt;
      }
    }
    fail("unterminated string");
    return std::nullopt;
  }

  std::optional<JsonValue> parseArray(int depth) {
    ++pos_;
    JsonValue::Array elements;
    skipSpace();
    if (consume("]"))
      return JsonValue::fromArray(std::move(elements));
    while (true) {
      skipSpace();
      auto element = parseValue(depth + 1);
      if (!element)
        return std::nullopt;
      elements.push_back(std::move(*element));
      skipSpace();
      if (consume("]"))
        return JsonValue::fromArray(std::move(elements));
      if (!consume(","))
        return fail("expected ',' or ']'");
    }
  }

  std::optional<JsonValue> parseObject(int depth) {
    ++pos_;
    JsonValue::Object members;
    skipSpace();
    if (consume("}"))
      return JsonValue::fromObject(std::move(members));
    while (true) {
      skipSpace();
      if (pos_ >= text_.size() || text_[pos_] != '"')
        return fail("expected a member name");
      auto name = parseString();
      if (!name)
        return std::nullopt;
      skipSpace();
      if (!consume(":"))
        return fail("expected ':'");
      skipSpace();
      auto value = parseValue(depth + 1);
      if (!value)
        return std::nullopt;
      members.insert_or_assign(std::move(*name), std::move(*value));
      skipSpace();
      if (consume("}"))
        return JsonValue::fromObject(std::move(members));
      if (!consume(","))
        return fail("expected ',' or '}'");
    }
  }

  std::string_view text_;
  size_t pos_ = 0;
  std::string error_;
  size_t errorAt_ = 0;
};

} // namespace

JsonParseResult parseJson(std::string_view text) {
  return Parser(text).parse();
}

} // namespace ocelot
