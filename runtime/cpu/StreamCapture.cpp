#include "runtime/cpu/StreamCapture.h"

#include <set>

namespace ocelot::runtime::cpu {

CaptureStream* CaptureRegistry::find(const CpuStream* queue) {
  auto it = streams_.find(queue);
  return it != streams_.end() ? &it->second : nullptr;
}

CaptureStream& CaptureRegistry::begin(const CpuStream* queue, Graph* graph, bool ownsGraph,
                                      cudaStreamCaptureMode mode) {
  auto session = std::make_shared<CaptureSession>();
  session->id = nextId_++;
  session->graph = graph;
  session->ownsGraph = ownsGraph;
  session->mode = mode;
  session->thread = std::this_thread::get_id();
  session->origin = queue;
  sessions_[session->id] = session;
  active_.store(static_cast<int>(sessions_.size()), std::memory_order_release);
  return join(queue, std::move(session), {});
}

CaptureStream& CaptureRegistry::join(const CpuStream* queue,
                                     std::shared_ptr<CaptureSession> session,
                                     std::vector<cudaGraphNode_t> dependencies) {
  CaptureStream& stream = streams_[queue];
  stream.session = std::move(session);
  stream.edges.assign(dependencies.size(), cudaGraphEdgeData{});
  stream.dependencies = std::move(dependencies);
  return stream;
}

void CaptureRegistry::end(const CaptureSession& session) {
  for (auto it = streams_.begin(); it != streams_.end();)
    it = it->second.session.get() == &session ? streams_.erase(it) : std::next(it);
  sessions_.erase(session.id);
  active_.store(static_cast<int>(sessions_.size()), std::memory_order_release);
}

std::shared_ptr<CaptureSession> CaptureRegistry::forget(const CpuStream* queue) {
  auto it = streams_.find(queue);
  if (it == streams_.end())
    return nullptr;
  std::shared_ptr<CaptureSession> session = it->second.session;
  session->invalidated = true;
  streams_.erase(it);
  if (session->origin != queue)
    return nullptr;
  end(*session);
  return session;
}

std::shared_ptr<CaptureSession> CaptureRegistry::session(unsigned long long id) const {
  auto it = sessions_.find(id);
  return it != sessions_.end() ? it->second : nullptr;
}

bool CaptureRegistry::joined(const CaptureSession& session) {
  const CaptureStream* origin = find(session.origin);
  if (origin == nullptr)
    return false;
  std::set<const GraphNode*> reached;
  std::vector<const GraphNode*> work;
  for (cudaGraphNode_t node : origin->dependencies)
    work.push_back(reinterpret_cast<const GraphNode*>(node));
  while (!work.empty()) {
    const GraphNode* node = work.back();
    work.pop_back();
    if (!reached.insert(node).second)
      continue;
    for (const GraphNode* dependency : node->dependencies)
      work.push_back(dependency);
  }
  for (const auto& [queue, stream] : streams_) {
    if (stream.session.get() != &session || queue == session.origin)
      continue;
    for (cudaGraphNode_t node : stream.dependencies)
      if (reached.count(reinterpret_cast<const GraphNode*>(node)) == 0)
        return false;
  }
  return true;
}

bool CaptureRegistry::capturesInto(const Graph* graph) const {
  for (const auto& [id, session] : sessions_)
    if (session->graph == graph)
      return true;
  return false;
}

void CaptureRegistry::clear() {
  streams_.clear();
  sessions_.clear();
  active_.store(0, std::memory_order_release);
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
