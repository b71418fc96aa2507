import AdminDomain
import Foundation
import PushTemplates

/// Audience previews computed in the background, one per campaign draft: a page asks and
/// gets the progress at once, never waiting on the scan. A result is kept ten minutes.
actor AudiencePreviews {
    enum State: Sendable {
        case counting(progress: Double)
        case ready(AudiencePreview, at: Date)
        case failed(String)
    }

    private var states: [Int64: State] = [:]
    private var order: [Int64] = []
    let audience: Audience
    let defaultTimeZone: String
    let database: PanelDatabase
    /// To know which placeholders a campaign's message names, in any of its languages.
    let templates: PushTemplateLibrary
    static let keptFor: TimeInterval = 600
    static let keptAtMost = 64

    init(audience: Audience, defaultTimeZone: String, database: PanelDatabase, templates: PushTemplateLibrary = PushTemplateLibrary()) {
        self.templates = templates
        self.audience = audience
        self.defaultTimeZone = defaultTimeZone
        self.database = database
    }

    /// The preview as far as it got; starts one when there is none or it is too old.
    func state(for campaign: CampaignRecord, now: Date = Date()) -> State {
        switch states[campaign.id] {
        case .counting(let progress): return .counting(progress: progress)
        case .ready(let preview, let at) where now.timeIntervalSince(at) < Self.keptFor: return .ready(preview, at: at)
        default: break
        }
        guard let segment = campaign.segment else { return .failed("This campaign's audience was saved by a newer panel and cannot be read here.") }
        set(.counting(progress: 0), for: campaign.id)
        let (audience, zone, database, id, schedule) = (audience, defaultTimeZone, database, campaign.id, campaign.schedule)
        let text = try? CampaignText(title: campaign.title, body: campaign.body, template: campaign.template, library: templates)
        let used = text?.variants.reduce(into: Set<String>()) { $0.formUnion($1.template.placeholdersUsed) } ?? []
        let fallbacks = FallbackGroup.used(by: used)
        Task {
            do {
                let preview = try await audience.preview(segment, schedule: schedule, defaultTimeZone: zone, fallbacks: fallbacks,
                                                         in: database) { fraction in
                    await self.set(.counting(progress: fraction), for: id)
                }
                var counted = preview
                counted.placeholdersUsed = used
                self.set(.ready(counted, at: Date()), for: id)
            } catch {
                self.set(.failed("The audience could not be counted: the database did not answer. Reload to try again."), for: id)
            }
        }
        return .counting(progress: 0)
    }

    /// A finished preview young enough to launch from, or nil.
    func ready(_ id: Int64, now: Date = Date()) -> (AudiencePreview, Date)? {
        if case .ready(let preview, let at) = states[id], now.timeIntervalSince(at) < Self.keptFor { return (preview, at) }
        return nil
    }

    private func set(_ state: State, for id: Int64) {
        // A late progress report must not overwrite the finished result.
        if case .ready = states[id], case .counting = state { return }
        if states[id] == nil {
            order.append(id)
            if order.count > Self.keptAtMost { states[order.removeFirst()] = nil }
        }
        states[id] = state
    }

    func forget(_ id: Int64) {
        states[id] = nil
    }
}
