// One process of a conversation over a given store, for the specs of the store's use: its conversation opened on
// one fresh record, the store's calls, and the record repository, with the entropy fixed.
import { ConversationState } from '../../core/application/conversation-state'
import { RecordRepository } from '../../core/application/record-repository'
import { StoreCalls, StoreHealth } from '../../core/application/store-calls'
import { mergeConversation } from '../../core/domain/conversation/merge'
import { newRecord } from '../../core/domain/conversation/record'
import type { Clock } from '../../core/ports/clock.port'
import type { Host } from '../../core/ports/host.port'
import type { KeyValueStore } from '../../core/ports/store.port'
import { CONV, ID1 } from '../support'

/** The process whose own record is `key`: a conversation open on a new record of ID1, nothing saved yet. */
export function oneProcess(store: KeyValueStore, clock: Clock, host: Host, key: string) {
  const conversation = new ConversationState()
  const record = newRecord(ID1)
  conversation.begin({ key: CONV, recordKey: key, sessionId: 'S1' }, record, mergeConversation(key, record, new Map()))
  const calls = new StoreCalls(store, clock, host, new StoreHealth())
  const entropy = { randomHex: (n: number) => 'c'.repeat(n), sha256: async () => CONV }
  const records = new RecordRepository(calls, clock, entropy, host, conversation)
  return { conversation, calls, entropy, records }
}
