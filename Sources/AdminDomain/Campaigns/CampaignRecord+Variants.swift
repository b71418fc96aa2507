extension CampaignRecord {
    /// The message `variant` carries: A is the campaign's own, B to D as composed; nil for a
    /// letter this campaign does not have (never another variant's text in its place).
    public func message(_ variant: MessageVariant) -> VariantMessage? {
        variant == .a
            ? VariantMessage(variant: .a, title: title, body: body, template: template)
            : experiment.variants.first { $0.variant == variant }
    }
}
