/**
 * Czech texts of the plugin, loaded when the app's language is `cs`. A plain map rather than
 * createTranslationMessages: that would import the ref, whose type depends on this module's
 * (a type cycle), and would reject Czech's extra plural forms (`_few`, `_many`), which English
 * does not have. The ref's `translations` option checks that every message is translated.
 */
export default {
  'page.title': 'Zeptejte se dokumentace',
  'page.subtitle':
    'Odpovědi z TechDocs a katalogu, včetně zdrojů, ze kterých vycházejí',
  'askDocsCard.title': 'Zeptejte se dokumentace',
  'entityCard.title': 'Zeptejte se na dokumentaci entity {{name}}',
  'techDocsAddon.title': 'Zeptejte se na tuto dokumentaci',
  'askPanel.label': 'Položte otázku k dokumentaci',
  'askPanel.placeholder': 'Jak vrátit vydání na předchozí verzi?',
  'askPanel.entityPlaceholder': 'Co chcete vědět o entitě {{name}}?',
  'askPanel.submit': 'Zeptat se',
  'askPanel.newQuestion': 'Nová otázka',
  'askState.retrieving': 'Prohledává se dokumentace…',
  'askState.generating':
    'Připravuje se odpověď (do ověření citací jde jen o koncept)…',
  'askState.errorTitle': 'Na otázku se nepodařilo odpovědět',
  'askState.retry': 'Zkusit znovu',
  'askState.requestId': 'ID požadavku {{requestId}}',
  'answerView.correction': 'Hledal se výraz {{corrected}} místo {{original}}',
  // Czech plurals: one (1), few (2–4), many (decimals), other (0, 5 and more).
  'answerView.outdated_one': 'Citovaný dokument má novější revizi: {{titles}}.',
  'answerView.outdated_few':
    '{{count}} citované dokumenty mají novější revizi: {{titles}}.',
  'answerView.outdated_many':
    '{{count}} citovaného dokumentu má novější revizi: {{titles}}.',
  'answerView.outdated_other':
    '{{count}} citovaných dokumentů má novější revizi: {{titles}}.',
  'answerView.outdatedAdvice':
    'Odpověď proto může být zastaralá; pro aktuální odpověď se zeptejte znovu.',
  'answerView.sources': 'Zdroje',
  'answerView.evidence': 'Relevantní pasáže',
  'answerView.notInKnowledgeBase.title': 'Není ve znalostní bázi',
  'answerView.notInKnowledgeBase.message':
    'Tato informace ve znalostní bázi není. Na otázku neodpovídá žádný dokument, ' +
    'ke kterému máte přístup.',
  'answerView.evidenceOnly.title': 'Nejde o odpověď',
  'answerView.evidenceOnly.message':
    'Nejde o odpověď: jazykový model není dostupný. Toto jsou nejrelevantnější ' +
    'pasáže z dokumentace.',
  'answerView.reasons.modelFoundNoAnswer':
    'Nalezené pasáže odpověď na tuto otázku neobsahují.',
  'answerView.reasons.contextTooLarge':
    'Nejde o odpověď: relevantní pasáže jsou příliš dlouhé, aby je bylo možné poslat ' +
    'jazykovému modelu. Toto jsou nejrelevantnější pasáže z dokumentace.',
  'answerView.reasons.uncitedAnswer':
    'Nejde o odpověď: model ve své odpovědi necitoval žádný z nalezených dokumentů, ' +
    'proto se odpověď nezobrazuje. Toto jsou nejrelevantnější pasáže z dokumentace.',
  'answerView.reasons.unsupportedAnswer':
    'Nejde o odpověď: pasáže, které model citoval, jeho odpověď nepotvrzují, proto se ' +
    'odpověď nezobrazuje. Toto jsou nejrelevantnější pasáže z dokumentace.',
  'answerView.reasons.quotaExceeded':
    'Nejde o odpověď: váš limit odpovědí jazykového modelu na tomto portálu ' +
    '({{calls}} / {{window}}) je vyčerpán, proto model nebyl dotázán. Model bude znovu ' +
    'odpovídat, jakmile budou vaše dřívější odpovědi starší než toto období. Toto jsou ' +
    'nejrelevantnější pasáže z dokumentace.',
  'answerView.redacted.title': 'Odpověď je skrytá',
  'answerView.redacted.message':
    'Tato odpověď je skrytá: vycházela z dokumentů, ke kterým už nemáte přístup.',
  'answerView.redacted.notice':
    'Části této odpovědi jsou skryté, protože k některým dokumentům, ze kterých ' +
    'vycházela, už nemáte přístup.',
  'feedback.question': 'Pomohla vám tato odpověď?',
  'feedback.thanks': 'Děkujeme za zpětnou vazbu.',
  'feedback.helpful': 'Pomohla',
  'feedback.notHelpful': 'Nepomohla',
  'feedback.ratedHelpful': 'Podle vašeho hodnocení odpověď pomohla.',
  'feedback.ratedNotHelpful': 'Podle vašeho hodnocení odpověď nepomohla.',
  'feedback.notSaved': 'Zpětnou vazbu se nepodařilo uložit: {{error}}',
  'historyList.title': 'Vaše předchozí otázky',
  'historyList.empty': 'Zatím žádné otázky.',
  'historyList.showOlder': 'Zobrazit starší otázky',
  'historyList.askedVia': 'položena prostřednictvím {{actor}}',
  'historyList.status.answered': 'Zodpovězeno',
  'historyList.status.notInKnowledgeBase': 'Není ve znalostní bázi',
  'historyList.status.evidenceOnly': 'Jen relevantní pasáže',
  'ingestionPanel.title': 'Indexování znalostní báze',
  'ingestionPanel.subheader': 'Viditelné pouze pro administrátory',
  'ingestionPanel.inProgress': 'Probíhá indexování',
  'ingestionPanel.noRun': 'Indexování zatím neproběhlo.',
  'ingestionPanel.run': 'Běh {{runId}}: {{status}}',
  'ingestionPanel.status.idle': 'nečinný',
  'ingestionPanel.status.running': 'probíhá',
  'ingestionPanel.status.succeeded': 'úspěšně dokončen',
  'ingestionPanel.status.failed': 'selhal',
  'ingestionPanel.trigger.schedule': '(plánovaný)',
  'ingestionPanel.trigger.manual': '(ruční)',
  'ingestionPanel.startedAt': 'zahájen {{date}}',
  'ingestionPanel.finishedAt': 'dokončen {{date}}',
  'ingestionPanel.counters.entitiesDone': 'Entity',
  'ingestionPanel.counters.pagesDone': 'Zpracované stránky',
  'ingestionPanel.counters.pagesSkipped': 'Přeskočené stránky',
  'ingestionPanel.counters.chunksWritten': 'Zapsané úseky',
  'ingestionPanel.counters.chunksEmbedded': 'Vektorizované úseky',
  'ingestionPanel.counters.chunksDeleted': 'Smazané úseky',
  'ingestionPanel.counters.chunksReanalysed': 'Znovu analyzované úseky',
  'ingestionPanel.counters.errors': 'Chyby',
  'ingestionPanel.start': 'Spustit indexování',
  'ingestionPanel.refresh': 'Obnovit',
  'searchAnswer.title': 'Odpověď z dokumentace',
  'searchAnswer.ask': 'Zeptat se dokumentace: „{{term}}“',
  'searchResult.ask': 'Zeptat se dokumentace',
  'errors.requestFailed': 'Požadavek selhal ({{status}})',
  'errors.incompleteStream':
    'Přenos odpovědi skončil předčasně; odpověď není úplná',
  'errors.malformedStream':
    'Přenos odpovědi obsahoval událost, kterou nelze přečíst',
  'errors.invalidAnswerId': 'Neplatné ID odpovědi',
};
