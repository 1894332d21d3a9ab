#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace ocelot {

/// A parsed JSON value, for programs that read Ocelot's profile files (`ocelot run`, the checks
/// of the GPU batch). Numbers keep their unsigned 64-bit value when they are non-negative
/// integers, so that counters round-trip exactly.
class JsonValue {
public:
  using Array = std::vector<JsonValue>;
  using Object = std::map<std::string, JsonValue, std::less<>>;

  JsonValue() = default; ///< null
  static JsonValue fromBool(bool value);
  static JsonValue fromNumber(double value, std::optional<uint64_t> exactUnsigned = std::nullopt);
  static JsonValue fromString(std::string value);
  static JsonValue fromArray(Array value);
  static JsonValue fromObject(Object value);

  bool isNull() const { return std::holds_alternative<std::monostate>(value_); }
  bool isBool() const { return std::holds_alternative<bool>(value_); }
  bool isNumber() const { return std::holds_alternative<Number>(value_); }
  bool isString() const { return std::holds_alternative<std::string>(value_); }
  bool isArray() const { return std::holds_alternative<std::shared_ptr<Array>>(value_); }
  bool isObject() const { return std::holds_alternative<std::shared_ptr<Object>>(value_); }

  /// The value, or `fallback` when it has another type.
  bool asBool(bool fallback = false) const;
  double asDouble(double fallback = 0) const;
  /// Exact for non-negative integers up to 2^64-1; other numbers are truncated.
  uint64_t asUnsigned(uint64_t fallback = 0) const;
  int64_t asInteger(int64_t fallback = 0) const;
  const std::string& asString() const; ///< empty for non-strings
  const Array& asArray() const;        ///< empty for non-arrays
  const Object& asObject() const;      ///< empty for non-objects

  /// Member `name` of an object; a null value when absent or not an object.
  const JsonValue& operator[](std::string_view name) const;
  bool has(std::string_view name) const;

private:
  struct Number {
    double value = 0;
    std::optional<uint64_t> exactUnsigned;
  };
  std::variant<std::monostate, bool, Number, std::string, std::shared_ptr<Array>,
               std::shared_ptr<Object>>
      value_;
};

/// The result of parsing: a value, or an error with the byte offset where parsing stopped.
struct JsonParseResult {
  std::optional<JsonValue> value;
  std::string error; ///< "offset 17: expected ':'"
  bool ok() const { return value.has_value(); }
};

/// Parses one JSON document (RFC 8259). Never throws on malformed input; nesting deeper than 256
/// levels is an error rather than a stack overflow.
JsonParseResult parseJson(std::string_view text);

} // namespace ocelot
