/**
 * The store feature (SPEC.md: What it stores; the multi-process protocol): the store's health for the load;
 * the conversation's records and claims held; over each call's store port, the bounded store calls, the
 * record's repository and the claims.
 */
import { Claims, HeldClaims } from '../../core/application/claims'
import { ConversationState } from '../../core/application/conversation-state'
import { RecordRepository } from '../../core/application/record-repository'
import { StoreCalls, StoreHealth } from '../../core/application/store-calls'
import { Clock } from '../../core/ports/clock.port'
import { Entropy } from '../../core/ports/entropy.port'
import { Host } from '../../core/ports/host.port'
import { KeyValueStore } from '../../core/ports/store.port'
import { feature, perCallClass, perContainer } from '../bind'

export const storeFeature = feature({
  load: (bind) => perContainer(bind, StoreHealth), // StoreCalls
  conversation: (bind) => {
    perContainer(
      bind,
      ConversationState, // RecordRepository (moved: DetectMove)
      HeldClaims, // Claims
    )
  },
  call: (bind) => {
    perCallClass(bind, StoreCalls, [KeyValueStore, Clock, Host, StoreHealth])
    perCallClass(bind, RecordRepository, [StoreCalls, Clock, Entropy, Host, ConversationState])
    perCallClass(bind, Claims, [StoreCalls, Clock, Entropy, ConversationState, HeldClaims])
  },
})
