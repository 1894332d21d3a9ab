#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ocelot {

/// Writes JSON text incrementally: objects, arrays, keys and scalars, with commas and escapes
/// handled. Output is compact (one line), so that a file of profiles is one profile per line.
///
///     JsonWriter out;
///     out.beginObject().key("kernel").value("k").key("counts").beginArray();
///     for (uint64_t c : counts) out.value(c);
///     out.endArray().endObject();
///     std::string text = out.take();
class JsonWriter {
public:
  JsonWriter& beginObject();
  JsonWriter& endObject();
  JsonWriter& beginArray();
  JsonWriter& endArray();
  /// The key of the next member of the current object.
  JsonWriter& key(std::string_view name);
  JsonWriter& value(std::string_view text);
  JsonWriter& value(const char* text) { return value(std::string_view(text)); }
  JsonWriter& value(const std::string& text) { return value(std::string_view(text)); }
  JsonWriter& value(bool flag);
  JsonWriter& value(int64_t number);
  JsonWriter& value(uint64_t number);
  JsonWriter& value(int number) { return value(static_cast<int64_t>(number)); }
  JsonWriter& value(unsigned number) { return value(static_cast<uint64_t>(number)); }
  /// Non-finite numbers are written as null (JSON has no NaN or infinity).
  JsonWriter& value(double number);
  JsonWriter& null();

  const std::string& text() const { return out_; }
  std::string take() { return std::move(out_); }

private:
  void separate();

  std::string out_;
  /// Per open container: whether it has an element yet.
  std::vector<bool> hasElement_;
  bool afterKey_ = false;
};

/// `text` as a JSON string literal, quotes included.
std::string jsonQuote(std::string_view text);

} // namespace ocelot
