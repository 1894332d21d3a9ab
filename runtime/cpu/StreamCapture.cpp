#include "runtime/cpu/StreamCapture.h"

#include "runtime/cpu/CpuStream.h"

#include <algorithm>
#include <set>

namespace ocelot::runtime::cpu {

CaptureStream& CaptureRegistry::begin(CpuStream& stream, GraphBody* graph, bool ownsGraph,
                                      cudaStreamCaptureMode mode) {
  auto session = std::make_shared<CaptureSession>();
  session->id = nextId_++;
  session->graph = graph;
  session->ownsGraph = ownsGraph;
  session->mode = mode;
  session->thread = std::this_thread::get_id();
  session->origin = &stream;
  sessions_[session->id] = session;
  active_.store(static_cast<int>(sessions_.size()), std::memory_order_release);
  return join(stream, std::move(session), {});
}

CaptureStream& CaptureRegistry::join(CpuStream& stream, std::shared_ptr<CaptureSession> session,
                                     std::vector<cudaGraphNode_t> dependencies) {
  session->streams.push_back(&stream);
  std::optional<CaptureStream>& state = stream.captureSlot();
  state.emplace();
  state->session = std::move(session);
  state->edges.assign(dependencies.size(), cudaGraphEdgeData{});
  state->dependencies = std::move(dependencies);
  return *state;
}

void CaptureRegistry::end(const CaptureSession& session) {
  for (CpuStream* stream : session.streams)
    stream->captureSlot().reset();
  sessions_.erase(session.id);
  active_.store(static_cast<int>(sessions_.size()), std::memory_order_release);
}

std::shared_ptr<CaptureSession> CaptureRegistry::forget(CpuStream& stream) {
  CaptureStream* state = stream.captureState();
  if (state == nullptr)
    return nullptr;
  std::shared_ptr<CaptureSession> session = state->session;
  session->invalidated = true;
  auto& members = session->streams;
  members.erase(std::remove(members.begin(), members.end(), &stream), members.end());
  stream.captureSlot().reset();
  if (session->origin != &stream)
    return nullptr;
  end(*session);
  return session;
}

std::shared_ptr<CaptureSession> CaptureRegistry::session(unsigned long long id) const {
  auto it = sessions_.find(id);
  return it != sessions_.end() ? it->second : nullptr;
}

bool CaptureRegistry::joined(const CaptureSession& session) {
  auto origin = std::find(session.streams.begin(), session.streams.end(), session.origin);
  if (origin == session.streams.end())
    return false;
  std::set<const GraphNode*> reached;
  std::vector<const GraphNode*> work;
  for (cudaGraphNode_t node : (*origin)->captureState()->dependencies)
    work.push_back(reinterpret_cast<const GraphNode*>(node));
  while (!work.empty()) {
    const GraphNode* node = work.back();
    work.pop_back();
    if (!reached.insert(node).second)
      continue;
    for (const GraphNode* dependency : node->dependencies)
      work.push_back(dependency);
  }
  for (CpuStream* stream : session.streams) {
    if (stream == session.origin)
      continue;
    for (cudaGraphNode_t node : stream->captureState()->dependencies)
      if (reached.count(reinterpret_cast<const GraphNode*>(node)) == 0)
        return false;
  }
  return true;
}

bool CaptureRegistry::capturesInto(const GraphBody* graph) const {
  for (const auto& [id, session] : sessions_)
    if (session->graph == graph)
      return true;
  return false;
}

void CaptureRegistry::clear() {
  for (auto& [id, session] : sessions_)
    for (CpuStream* stream : session->streams)
      stream->captureSlot().reset();
  sessions_.clear();
  active_.store(0, std::memory_order_release);
}

void CaptureRegistry::forEachStream(const std::function<void(CpuStream&, CaptureStream&)>& visit) {
  for (auto& [id, session] : sessions_)
    for (CpuStream* stream : session->streams)
      visit(*stream, *stream->captureState());
}

cudaStreamCaptureMode& CaptureRegistry::threadMode() {
  thread_local cudaStreamCaptureMode mode = cudaStreamCaptureModeGlobal;
  return mode;
}

bool CaptureRegistry::prohibitsUnsafeCall() {
  // CUDA's rules: a thread in relaxed mode may always make the call. Otherwise its own
  // non-relaxed sequences prohibit it, and in global mode so do other threads' global ones.
  const cudaStreamCaptureMode mode = threadMode();
  if (mode == cudaStreamCaptureModeRelaxed)
    return false;
  const std::thread::id self = std::this_thread::get_id();
  bool prohibited = false;
  for (auto& [id, session] : sessions_) {
    const bool own = session->thread == self;
    if ((own && session->mode != cudaStreamCaptureModeRelaxed) ||
        (!own && mode == cudaStreamCaptureModeGlobal &&
         session->mode == cudaStreamCaptureModeGlobal)) {
      session->invalidated = true;
      prohibited = true;
    }
  }
  return prohibited;
}

} // namespace ocelot::runtime::cpu
